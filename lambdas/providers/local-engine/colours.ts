// Colours the local engine understands in edit instructions and model prompts: #rrggbb, #rgb, or a name below.

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** The CSS named colours (CSS Color Module Level 4), by name. */
export const CSS_COLOURS: Readonly<Record<string, string>> = {
  aliceblue: '#f0f8ff', antiquewhite: '#faebd7', aqua: '#00ffff', aquamarine: '#7fffd4', azure: '#f0ffff',
  beige: '#f5f5dc', bisque: '#ffe4c4', black: '#000000', blanchedalmond: '#ffebcd', blue: '#0000ff',
  blueviolet: '#8a2be2', brown: '#a52a2a', burlywood: '#deb887', cadetblue: '#5f9ea0', chartreuse: '#7fff00',
  chocolate: '#d2691e', coral: '#ff7f50', cornflowerblue: '#6495ed', cornsilk: '#fff8dc', crimson: '#dc143c',
  cyan: '#00ffff', darkblue: '#00008b', darkcyan: '#008b8b', darkgoldenrod: '#b8860b', darkgray: '#a9a9a9',
  darkgreen: '#006400', darkgrey: '#a9a9a9', darkkhaki: '#bdb76b', darkmagenta: '#8b008b', darkolivegreen: '#556b2f',
  darkorange: '#ff8c00', darkorchid: '#9932cc', darkred: '#8b0000', darksalmon: '#e9967a', darkseagreen: '#8fbc8f',
  darkslateblue: '#483d8b', darkslategray: '#2f4f4f', darkslategrey: '#2f4f4f', darkturquoise: '#00ced1',
  darkviolet: '#9400d3', deeppink: '#ff1493', deepskyblue: '#00bfff', dimgray: '#696969', dimgrey: '#696969',
  dodgerblue: '#1e90ff', firebrick: '#b22222', floralwhite: '#fffaf0', forestgreen: '#228b22', fuchsia: '#ff00ff',
  gainsboro: '#dcdcdc', ghostwhite: '#f8f8ff', gold: '#ffd700', goldenrod: '#daa520', gray: '#808080',
  green: '#008000', greenyellow: '#adff2f', grey: '#808080', honeydew: '#f0fff0', hotpink: '#ff69b4',
  indianred: '#cd5c5c', indigo: '#4b0082', ivory: '#fffff0', khaki: '#f0e68c', lavender: '#e6e6fa',
  lavenderblush: '#fff0f5', lawngreen: '#7cfc00', lemonchiffon: '#fffacd', lightblue: '#add8e6',
  lightcoral: '#f08080', lightcyan: '#e0ffff', lightgoldenrodyellow: '#fafad2', lightgray: '#d3d3d3',
  lightgreen: '#90ee90', lightgrey: '#d3d3d3', lightpink: '#ffb6c1', lightsalmon: '#ffa07a',
  lightseagreen: '#20b2aa', lightskyblue: '#87cefa', lightslategray: '#778899', lightslategrey: '#778899',
  lightsteelblue: '#b0c4de', lightyellow: '#ffffe0', lime: '#00ff00', limegreen: '#32cd32', linen: '#faf0e6',
  magenta: '#ff00ff', maroon: '#800000', mediumaquamarine: '#66cdaa', mediumblue: '#0000cd', mediumorchid: '#ba55d3',
  mediumpurple: '#9370db', mediumseagreen: '#3cb371', mediumslateblue: '#7b68ee', mediumspringgreen: '#00fa9a',
  mediumturquoise: '#48d1cc', mediumvioletred: '#c71585', midnightblue: '#191970', mintcream: '#f5fffa',
  mistyrose: '#ffe4e1', moccasin: '#ffe4b5', navajowhite: '#ffdead', navy: '#000080', oldlace: '#fdf5e6',
  olive: '#808000', olivedrab: '#6b8e23', orange: '#ffa500', orangered: '#ff4500', orchid: '#da70d6',
  palegoldenrod: '#eee8aa', palegreen: '#98fb98', paleturquoise: '#afeeee', palevioletred: '#db7093',
  papayawhip: '#ffefd5', peachpuff: '#ffdab9', peru: '#cd853f', pink: '#ffc0cb', plum: '#dda0dd',
  powderblue: '#b0e0e6', purple: '#800080', rebeccapurple: '#663399', red: '#ff0000', rosybrown: '#bc8f8f',
  royalblue: '#4169e1', saddlebrown: '#8b4513', salmon: '#fa8072', sandybrown: '#f4a460', seagreen: '#2e8b57',
  seashell: '#fff5ee', sienna: '#a0522d', silver: '#c0c0c0', skyblue: '#87ceeb', slateblue: '#6a5acd',
  slategray: '#708090', slategrey: '#708090', snow: '#fffafa', springgreen: '#00ff7f', steelblue: '#4682b4',
  tan: '#d2b48c', teal: '#008080', thistle: '#d8bfd8', tomato: '#ff6347', turquoise: '#40e0d0', violet: '#ee82ee',
  wheat: '#f5deb3', white: '#ffffff', whitesmoke: '#f5f5f5', yellow: '#ffff00', yellowgreen: '#9acd32',
};

/** The everyday names a model description may use for its wall (tinting the studio): fewer, so "linen shirt" or "tan" never repaint it. */
export const COLOUR_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  ['white', 'black', 'grey', 'gray', 'silver', 'red', 'maroon', 'orange', 'yellow', 'gold', 'olive', 'green', 'lime', 'teal', 'turquoise', 'cyan',
    'blue', 'navy', 'purple', 'lavender', 'magenta', 'pink', 'coral', 'brown', 'beige', 'khaki', 'ivory'].map((name) => [name, CSS_COLOURS[name]!]),
);

/** Words before a colour that lighten or darken it when CSS has no such name ("pale mint", "deep teal"). */
const SHADES: Readonly<Record<string, { toward: string; amount: number }>> = {
  light: { toward: '#ffffff', amount: 0.45 },
  pale: { toward: '#ffffff', amount: 0.6 },
  pastel: { toward: '#ffffff', amount: 0.55 },
  soft: { toward: '#ffffff', amount: 0.35 },
  dark: { toward: '#000000', amount: 0.4 },
  deep: { toward: '#000000', amount: 0.3 },
};
/** Common names CSS lacks. */
const EVERYDAY: Readonly<Record<string, string>> = {
  'off white': '#f8f6f0',
  offwhite: '#f8f6f0',
  cream: '#fffdd0',
  charcoal: '#36454f',
  'navy blue': '#000080',
  'baby blue': '#89cff0',
  'sky blue': '#87ceeb',
  'royal blue': '#4169e1',
  mint: '#98ff98',
  'mint green': '#98ff98',
  sage: '#9caf88',
  'sage green': '#9caf88',
  blush: '#de5d83',
  taupe: '#483c32',
  mustard: '#e1ad01',
  burgundy: '#800020',
  nude: '#e3bc9a',
};

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function hexColour(value: string): Rgb {
  const digits = value.length === 4 ? [...value.slice(1)].map((d) => d + d).join('') : value.slice(1);
  return {
    r: parseInt(digits.slice(0, 2), 16),
    g: parseInt(digits.slice(2, 4), 16),
    b: parseInt(digits.slice(4, 6), 16),
  };
}

/**
 * A colour as people write it: #rgb or #rrggbb, a CSS colour name in any spacing ("light blue", "LightBlue",
 * "light-blue"), a common name CSS lacks ("off white", "navy blue", "sage"), or a shade word before one of those
 * ("pale mint", "deep teal"); undefined when it is none of them.
 */
export function parseColour(text: string): Rgb | undefined {
  const words = text.trim().toLowerCase().replace(/[-_]+/g, ' ').replace(/\s+/g, ' ');
  if (HEX.test(words)) return hexColour(words);
  const named = EVERYDAY[words] ?? CSS_COLOURS[words.replace(/ /g, '')];
  if (named) return hexColour(named);
  const [shade, ...rest] = words.split(' ');
  const modifier = SHADES[shade!];
  if (!modifier || rest.length === 0) return undefined;
  const base = parseColour(rest.join(' '));
  return base && mixColours(base, hexColour(modifier.toward), modifier.amount);
}

const COLOUR_MENTION = /* @__PURE__ */ new RegExp(`(#[0-9a-f]{6}\\b|#[0-9a-f]{3}\\b|\\b(?:${Object.keys(COLOUR_NAMES).join('|')})\\b)`, 'i');

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
