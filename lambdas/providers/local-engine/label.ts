// The small "ModelLoop local engine" mark in the bottom-right corner of generated images and videos, so nobody takes
// them for AI output. Drawn from a built-in 5×7 bitmap font: no system fonts, identical on every machine.
import type { RgbaImage } from './raster.js';

export const LABEL_TEXT = 'ModelLoop local engine';

// Only the glyphs of LABEL_TEXT; rows top to bottom, '#' = ink.
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  o: ['.....', '.....', '.###.', '#...#', '#...#', '#...#', '.###.'],
  d: ['....#', '....#', '.##.#', '#..##', '#...#', '#..##', '.##.#'],
  e: ['.....', '.....', '.###.', '#...#', '#####', '#....', '.###.'],
  l: ['.##..', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  p: ['.....', '####.', '#...#', '#...#', '####.', '#....', '#....'],
  c: ['.....', '.....', '.###.', '#....', '#....', '#...#', '.###.'],
  a: ['.....', '.....', '.###.', '....#', '.####', '#...#', '.####'],
  n: ['.....', '.....', '#.##.', '##..#', '#...#', '#...#', '#...#'],
  g: ['.....', '.####', '#...#', '#...#', '.####', '....#', '.###.'],
  i: ['..#..', '.....', '.##..', '..#..', '..#..', '..#..', '.###.'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};
const GLYPH_WIDTH = 5;
const GLYPH_HEIGHT = 7;
/** Padding around the text inside the label's light plate, in font dots. */
const PLATE_PADDING = 2;

const INK = [40, 40, 40, 190] as const;
const PLATE = [255, 255, 255, 140] as const;

export interface LabelPlacement {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One font dot is one pixel on a 720-wide picture and grows with the width, so the mark stays small. */
function dotSize(imageWidth: number): number {
  return Math.max(1, Math.round(imageWidth / 720));
}

/** Where the label goes on a picture of this size (bottom-right corner, inset by 2% of the width). */
export function labelPlacement(width: number, height: number): LabelPlacement {
  const dot = dotSize(width);
  const labelWidth = (LABEL_TEXT.length * (GLYPH_WIDTH + 1) - 1 + 2 * PLATE_PADDING) * dot;
  const labelHeight = (GLYPH_HEIGHT + 2 * PLATE_PADDING) * dot;
  const inset = Math.round(width * 0.02);
  return { left: width - inset - labelWidth, top: height - inset - labelHeight, width: labelWidth, height: labelHeight };
}

/** The label as straight RGBA pixels, sized for a picture of this width. */
export function renderLabel(imageWidth: number): RgbaImage {
  const dot = dotSize(imageWidth);
  const { width, height } = labelPlacement(imageWidth, 0);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(PLATE, i * 4);
  [...LABEL_TEXT].forEach((char, index) => {
    const glyph = GLYPHS[char];
    if (!glyph) throw new Error(`label font has no glyph for '${char}'`);
    glyph.forEach((row, gy) =>
      [...row].forEach((cell, gx) => {
        if (cell !== '#') return;
        const x0 = (PLATE_PADDING + index * (GLYPH_WIDTH + 1) + gx) * dot;
        const y0 = (PLATE_PADDING + gy) * dot;
        for (let y = y0; y < y0 + dot; y++) for (let x = x0; x < x0 + dot; x++) data.set(INK, (y * width + x) * 4);
      }),
    );
  });
  return { data, width, height };
}
