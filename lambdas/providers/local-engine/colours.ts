// Colours the local engine understands in edit instructions and model prompts: #rrggbb, #rgb, or a name below.

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** A small set of CSS colour names (CSS values). */
export const COLOUR_NAMES: Readonly<Record<string, string>> = {
  white: '#ffffff',
  black: '#000000',
  grey: '#808080',
  gray: '#808080',
  silver: '#c0c0c0',
  red: '#ff0000',
  maroon: '#800000',
  orange: '#ffa500',
  yellow: '#ffff00',
  gold: '#ffd700',
  olive: '#808000',
  green: '#008000',
  lime: '#00ff00',
  teal: '#008080',
  turquoise: '#40e0d0',
  cyan: '#00ffff',
  blue: '#0000ff',
  navy: '#000080',
  purple: '#800080',
  lavender: '#e6e6fa',
  magenta: '#ff00ff',
  pink: '#ffc0cb',
  coral: '#ff7f50',
  brown: '#a52a2a',
  beige: '#f5f5dc',
  khaki: '#f0e68c',
  ivory: '#fffff0',
};

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A colour word (`white`, `#fff`, `#1a2b3c`), or undefined when it is none of them. */
export function parseColour(word: string): Rgb | undefined {
  const value = COLOUR_NAMES[word.toLowerCase()] ?? (HEX.test(word) ? word : undefined);
  if (!value) return undefined;
  const digits = value.length === 4 ? [...value.slice(1)].map((d) => d + d).join('') : value.slice(1);
  return {
    r: parseInt(digits.slice(0, 2), 16),
    g: parseInt(digits.slice(2, 4), 16),
    b: parseInt(digits.slice(4, 6), 16),
  };
}

const COLOUR_MENTION = new RegExp(`(#[0-9a-f]{6}\\b|#[0-9a-f]{3}\\b|\\b(?:${Object.keys(COLOUR_NAMES).join('|')})\\b)`, 'i');

/** The first colour mentioned in free text. */
export function findColour(text: string): Rgb | undefined {
  const match = COLOUR_MENTION.exec(text);
  return match ? parseColour(match[1]!) : undefined;
}

/** a + (b − a)·t per channel. */
export function mixColours(a: Rgb, b: Rgb, t: number): Rgb {
  const channel = (x: number, y: number) => Math.round(x + (y - x) * t);
  return { r: channel(a.r, b.r), g: channel(a.g, b.g), b: channel(a.b, b.b) };
}

export function cssColour({ r, g, b }: Rgb): string {
  return `rgb(${r},${g},${b})`;
}
