// The edit instructions the local engine understands, parsed from free text (case-insensitive). Several combine with
// "and", "then", commas or semicolons and apply in the order written. Anything else is refused, naming what was
// understood, with the list below. The first things sellers type are here: "remove the background", "white
// background", "transparent background" (the product cut out, onto white or onto transparency), "warmer by 30%".
import { ProviderError } from '../ports.js';
import { cssColour, parseColour, type Rgb } from './colours.js';

export type EditStep =
  /** The product cut out (the one cutout: cutout.ts) onto a colour, or onto transparency (the PNG keeps its alpha). */
  | { kind: 'background'; colour: Rgb | 'transparent' }
  /** Multiplies every channel. */
  | { kind: 'brightness'; factor: number }
  /** Stretches (> 1) or flattens (< 1) values around mid-grey. */
  | { kind: 'contrast'; factor: number }
  | { kind: 'flip'; axis: 'horizontal' | 'vertical' }
  | { kind: 'crop-to-product' }
  /** The largest centred crop (centred on the product where there is one) of width:height. */
  | { kind: 'crop-to-ratio'; width: number; height: number }
  /**
   * Shifts the colour balance of the light around the product: > 0 warmer (more red, less blue), < 0 cooler; a share
   * (0.1 = 10%). The product keeps its colour (edit.ts).
   */
  | { kind: 'temperature'; shift: number }
  | { kind: 'grayscale' }
  /** Clockwise. */
  | { kind: 'rotate'; degrees: 90 | 180 | 270 };

/** Brightness and contrast change by this much when no percentage is given. */
export const DEFAULT_EDIT_PERCENT = 20;
/** Warmer and cooler shift the balance by this much when no percentage is given. */
export const DEFAULT_TEMPERATURE_PERCENT = 10;
const RATIO_NAMES: Readonly<Record<string, [number, number]>> = { square: [1, 1], portrait: [4, 5], landscape: [16, 9], story: [9, 16] };
const COLOUR_HELP = 'a CSS colour name (e.g. white, navy, light blue, off white), #rrggbb or #rgb';

/** The understood instructions, for help texts: what to type and what it does. */
export const EDIT_INSTRUCTIONS: ReadonlyArray<{ instruction: string; effect: string }> = [
  {
    instruction: 'background <colour> (or: <colour> background, white background)',
    effect: `cuts the product out onto that colour; <colour> is ${COLOUR_HELP}`,
  },
  {
    instruction: 'remove the background (or: transparent background, no background, cut out)',
    effect: 'cuts the product out onto transparency (a PNG with an alpha channel)',
  },
  { instruction: 'brighten [by N%] (or: brighter, make it brighter, brighter light)', effect: `makes the image N% brighter (default ${DEFAULT_EDIT_PERCENT}%)` },
  { instruction: 'darken [by N%] (or: darker, make it darker)', effect: `makes the image N% darker (default ${DEFAULT_EDIT_PERCENT}%)` },
  { instruction: 'increase contrast [by N%] (or: more contrast)', effect: `default ${DEFAULT_EDIT_PERCENT}%` },
  { instruction: 'decrease contrast [by N%]', effect: `default ${DEFAULT_EDIT_PERCENT}%` },
  { instruction: 'mirror (or: flip horizontally)', effect: 'swaps left and right' },
  { instruction: 'flip vertically', effect: 'turns the image upside down' },
  { instruction: 'crop to the product', effect: 'cuts away the plain background around the product' },
  { instruction: 'crop to W:H (or: square, portrait, landscape, story)', effect: 'the largest crop of that ratio, centred on the product' },
  {
    instruction: 'warmer [by N%] (or: warmer light, make it warmer, a bit warmer)',
    effect: `warmer light around the product, whose colour stays true (default ${DEFAULT_TEMPERATURE_PERCENT}%)`,
  },
  { instruction: 'cooler [by N%] (or: cooler light, make it cooler)', effect: `cooler light around the product, whose colour stays true (default ${DEFAULT_TEMPERATURE_PERCENT}%)` },
  { instruction: 'grayscale (or: black and white)', effect: 'removes the colour' },
  { instruction: 'rotate 90|180|270 [clockwise|counterclockwise]', effect: 'turns the image (clockwise by default)' },
];

/** The one line a refused instruction ends with; the screen links it to the list (GET /edit-instructions). */
export const SEE_INSTRUCTION_LIST = 'See the list of instructions the local engine understands.';

export const EDIT_HELP =
  `The local engine understands: ${EDIT_INSTRUCTIONS.map(({ instruction }) => instruction).join('; ')}. ` +
  `Combine several with "and" or commas, e.g. "background white and brighten by 10%".`;

type Parser = (clause: string) => EditStep | undefined;

const PERCENT = String.raw`(?:\s+(?:by\s+)?(\d+(?:\.\d+)?)\s*%)?`;
/** What a seller calls the light of a picture ("warmer light", "make the lighting brighter"). */
const LIGHT = String.raw`(?:light|lighting|exposure)`;
/** What a seller calls its colour balance ("warmer tones", "make the light warmer"). */
const TONE = String.raw`(?:light|lighting|tones?|colou?rs?|balance|white\s+balance)`;
const COLOUR_WORD = String.raw`(#[0-9a-f]+|[a-z]+(?:[\s-][a-z]+){0,2})`;

function percent(match: RegExpMatchArray): number {
  return match[1] === undefined ? DEFAULT_EDIT_PERCENT : Number(match[1]);
}

function colour(word: string): Rgb {
  const rgb = parseColour(word);
  if (!rgb) {
    throw new ProviderError('unsupported', `Unknown colour "${word}". Use ${COLOUR_HELP}.`);
  }
  return rgb;
}

/** What "remove the background" is typed as: the product cut out onto transparency. */
const REMOVE_BACKGROUND = new RegExp(
  [
    String.raw`^(?:remove|delete|erase|drop|cut\s+out|cut\s+away|get\s+rid\s+of|take\s+out|take\s+away|clear)\s+(?:[a-z]+\s+)?(?:background|bg)(?:\s+(?:from|of|behind|around)(?:\s+(?:product|item|model|shirt|tee|dress))?)?$`,
    String.raw`^(?:background|bg)\s+(?:removal|removed|remover|off|out|gone)$`,
    String.raw`^(?:no|without|transparent|clear|empty|invisible)\s+(?:background|bg)$`,
    String.raw`^(?:(?:make|set|change|turn)\s+)?(?:background|bg)\s+(?:to\s+|into\s+)?(?:transparent|transparency|clear|invisible)$`,
    String.raw`^(?:cut\s*out|cutout|isolate|extract)(?:\s+(?:product|item|object|subject))?$`,
    String.raw`^(?:remove\s+bg|removebg|png\s+cutout)$`,
  ].join('|'),
);

/** "white background", "on white", "pure white bg": the product cut out onto white. */
const ON_WHITE = /^(?:(?:put|place|set)\s+)?(?:on|onto|against)\s+(?:(?:pure|plain|solid|clean)\s+)?white(?:\s+(?:background|bg|backdrop))?$|^(?:(?:pure|plain|solid|clean|bright)\s+)?white\s+(?:background|bg|backdrop)$/;

const PARSERS: readonly Parser[] = [
  (clause) => (REMOVE_BACKGROUND.test(clause) ? { kind: 'background', colour: 'transparent' } : undefined),
  (clause) => (ON_WHITE.test(clause) ? { kind: 'background', colour: { r: 255, g: 255, b: 255 } } : undefined),
  (clause) => {
    const match =
      clause.match(
        new RegExp(
          String.raw`^(?:(?:make|set|change|turn|replace|paint|fill|use)\s+)?(?:(?:plain|solid)\s+)?background` +
            String.raw`(?:\s+colou?r)?(?:\s+(?:to|with|in|as|into))?\s+(?:(?:plain|solid)\s+)?${COLOUR_WORD}$`,
        ),
      ) ?? clause.match(new RegExp(String.raw`^(?:(?:make|set|use|add)\s+)?(?:(?:plain|solid)\s+)?${COLOUR_WORD}\s+background$`));
    return match ? { kind: 'background', colour: colour(match[1]!) } : undefined;
  },
  (clause) => {
    const match = clause.match(
      new RegExp(String.raw`^(?:brighten(?:\s+up)?|lighten(?:\s+up)?|(?:make\s+)?(?:${LIGHT}\s+)?brighter(?:\s+${LIGHT})?|increase\s+brightness|more\s+light)${PERCENT}$`),
    );
    return match ? { kind: 'brightness', factor: 1 + percent(match) / 100 } : undefined;
  },
  (clause) => {
    const match = clause.match(
      new RegExp(String.raw`^(?:darken|(?:make\s+)?(?:${LIGHT}\s+)?darker(?:\s+${LIGHT})?|(?:decrease|reduce)\s+brightness|less\s+light)${PERCENT}$`),
    );
    if (!match) return undefined;
    const amount = percent(match);
    if (amount >= 100) throw new ProviderError('unsupported', 'Darken by less than 100%: 100% would leave a black image.');
    return { kind: 'brightness', factor: 1 - amount / 100 };
  },
  (clause) => {
    const match = clause.match(new RegExp(String.raw`^(increase|boost|raise|more|add|higher|stronger|decrease|reduce|lower|less|softer|weaker)\s+contrast${PERCENT}$`));
    if (!match) return undefined;
    const amount = match[2] === undefined ? DEFAULT_EDIT_PERCENT : Number(match[2]);
    const up = ['increase', 'boost', 'raise', 'more', 'add', 'higher', 'stronger'].includes(match[1]!);
    if (!up && amount >= 100) throw new ProviderError('unsupported', 'Decrease contrast by less than 100%.');
    return { kind: 'contrast', factor: up ? 1 + amount / 100 : 1 - amount / 100 };
  },
  (clause) =>
    /^(?:mirror(?:\s+horizontally)?|flip(?:\s+horizontally|\s+left\s+to\s+right)?)$/.test(clause)
      ? { kind: 'flip', axis: 'horizontal' }
      : undefined,
  (clause) =>
    /^(?:(?:flip|mirror)\s+vertically|(?:flip|turn)\s+upside\s+down|upside\s+down)$/.test(clause)
      ? { kind: 'flip', axis: 'vertical' }
      : undefined,
  (clause) => (/^crop(?:\s+(?:to|around)\s+product)?$/.test(clause) ? { kind: 'crop-to-product' } : undefined),
  (clause) => {
    const match = clause.match(/^(?:crop|cut)\s+(?:(?:it\s+)?(?:to|as|into)\s+)?(?:(\d+(?:\.\d+)?)\s*[:x×/]\s*(\d+(?:\.\d+)?)|(square|portrait|landscape|story))(?:\s+(?:ratio|format|crop))?$/);
    if (!match) return undefined;
    const [width, height] = match[3] ? RATIO_NAMES[match[3]]! : [Number(match[1]), Number(match[2])];
    if (!(width > 0 && height > 0) || Math.max(width / height, height / width) > 10) {
      throw new ProviderError('unsupported', 'Crop to a ratio between 1:10 and 10:1, e.g. "crop to 4:5".');
    }
    return { kind: 'crop-to-ratio', width, height };
  },
  (clause) => {
    const match = clause.match(
      new RegExp(
        String.raw`^(?:(?:make|turn|give)\s+)?(?:${TONE}\s+)?(warmer|cooler|warm\s+up|cool\s+down|warm|cool)(?:\s+(?:${TONE}|look|feel|mood))?${PERCENT}$`,
      ),
    );
    if (!match) return undefined;
    const amount = match[2] === undefined ? DEFAULT_TEMPERATURE_PERCENT : Number(match[2]);
    if (amount > 50) throw new ProviderError('unsupported', 'Warmer or cooler by at most 50%.');
    return { kind: 'temperature', shift: (match[1]!.startsWith('warm') ? 1 : -1) * (amount / 100) };
  },
  (clause) =>
    /^(?:(?:convert\s+to|make)\s+)?(?:grayscale|greyscale|monochrome|desaturate)$/.test(clause)
      ? { kind: 'grayscale' }
      : undefined,
  (clause) => {
    const match = clause.match(
      /^rotate\s+(?:by\s+)?(90|180|270)\s*(?:°|degrees?|deg)?(?:\s+(?:to\s+)?(clockwise|cw|right|counter-?clockwise|anti-?clockwise|ccw|left))?$/,
    );
    if (!match) return undefined;
    const degrees = Number(match[1]);
    const counter = match[2] !== undefined && !['clockwise', 'cw', 'right'].includes(match[2]);
    return { kind: 'rotate', degrees: (counter ? 360 - degrees : degrees) as 90 | 180 | 270 };
  },
];

/** The largest crop of `ratio` (width / height) that fits in `size`: what "crop to W:H" makes (edit.ts cuts it). */
export function ratioCropSize(size: { width: number; height: number }, ratio: number): { width: number; height: number } {
  return { width: Math.min(size.width, Math.round(size.height * ratio)), height: Math.min(size.height, Math.round(size.width / ratio)) };
}

/**
 * The size the steps make of a picture of `size`, step by step; undefined from a step whose result depends on the
 * pixels (crop to the product), which is checked on the result instead.
 */
export function editedSizes(steps: readonly EditStep[], size: { width: number; height: number }): Array<{ width: number; height: number }> {
  const sizes: Array<{ width: number; height: number }> = [];
  let current = size;
  for (const step of steps) {
    if (step.kind === 'crop-to-product') break;
    if (step.kind === 'crop-to-ratio') current = ratioCropSize(current, step.width / step.height);
    if (step.kind === 'rotate' && step.degrees !== 180) current = { width: current.height, height: current.width };
    sizes.push(current);
  }
  return sizes;
}

/** Words that carry no instruction ("please make the image …"), and softeners ("a bit warmer"): the default amount. */
const FILLER = /\b(?:please|the|image|photo|picture|it|its|a|an|my|this|can|you|could|bit|little|touch|tad|slightly|somewhat|just|overall)\b/g;

/** The instruction's clauses: as written (for messages) and reduced to their words that matter. */
function clauses(text: string): Array<{ written: string; words: string }> {
  return text
    .toLowerCase()
    .replace(/\b(?:black\s*(?:and|&)\s*white|b\s*[&/]\s*w)\b/g, 'grayscale')
    .split(/\s*(?:[,;]|[.!]\s|[.!]$|\band\s+then\b|\bthen\b|\band\b|&)\s*/)
    .map((written) => ({ written: written.trim(), words: written.replace(FILLER, ' ').replace(/\s+/g, ' ').trim() }))
    .filter(({ words }) => words !== '');
}

/** How a step is said back to the seller ("white background", "warmer by 30%"). */
export function describeEditStep(step: EditStep): string {
  const percent = (share: number) => `${Math.round(Math.abs(share) * 1000) / 10}%`;
  switch (step.kind) {
    case 'background':
      return step.colour === 'transparent' ? 'background removed (transparent)' : `background ${cssName(step.colour)}`;
    case 'brightness':
      return `${step.factor >= 1 ? 'brighter' : 'darker'} by ${percent(step.factor - 1)}`;
    case 'contrast':
      return `${step.factor >= 1 ? 'more' : 'less'} contrast by ${percent(step.factor - 1)}`;
    case 'flip':
      return step.axis === 'horizontal' ? 'mirror' : 'flip vertically';
    case 'crop-to-product':
      return 'crop to the product';
    case 'crop-to-ratio':
      return `crop to ${step.width}:${step.height}`;
    case 'temperature':
      return `${step.shift >= 0 ? 'warmer' : 'cooler'} by ${percent(step.shift)}`;
    case 'grayscale':
      return 'grayscale';
    case 'rotate':
      return `rotate ${step.degrees}° clockwise`;
  }
}

function cssName(colour: Rgb): string {
  return colour.r === 255 && colour.g === 255 && colour.b === 255 ? 'white' : cssColour(colour);
}

/**
 * The steps of an instruction text, in order; otherwise a ProviderError('unsupported') quoting the part not understood
 * and naming the parts that were ("Understood: white background, warmer by 30%.").
 */
export function parseEditInstructions(text: string): EditStep[] {
  const parts = clauses(text);
  if (parts.length === 0) throw new ProviderError('unsupported', `No edit instruction given. ${SEE_INSTRUCTION_LIST}`);
  const steps: EditStep[] = [];
  const refused: string[] = [];
  for (const { written, words } of parts) {
    const step = parseClause(written, words);
    if (typeof step === 'string') refused.push(step);
    else steps.push(step);
  }
  if (refused.length === 0) return steps;
  const understood = steps.length > 0 ? ` Understood: ${steps.map(describeEditStep).join(', ')}.` : '';
  throw new ProviderError('unsupported', `${refused[0]}${understood} ${SEE_INSTRUCTION_LIST}`);
}

/** One clause's step, or the sentence that refuses it. */
function parseClause(written: string, words: string): EditStep | string {
  for (const parse of PARSERS) {
    try {
      const step = parse(words);
      if (step) return step;
    } catch (error) {
      // A clause understood but not doable as asked (an unknown colour, darken by 100%): its own reason.
      if (error instanceof ProviderError) return error.message;
      throw error;
    }
  }
  const shown = written.length > 60 ? `${written.slice(0, 57)}...` : written;
  return `Unsupported edit instruction "${shown}".`;
}
