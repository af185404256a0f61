// The one mark burned into the engine's pictures and clips: a small "ModelLoop preview" in the bottom-right corner, so
// nobody takes them for AI output. Nothing else is written on a picture (no angle names, no captions). Drawn from a
// built-in 5×7 bitmap font: no system fonts, identical on every machine.
import type { RgbaImage } from './raster.js';

export const LABEL_TEXT = 'ModelLoop preview';

// Only the glyphs of LABEL_TEXT; rows top to bottom, '#' = ink.
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  o: ['.....', '.....', '.###.', '#...#', '#...#', '#...#', '.###.'],
  d: ['....#', '....#', '.##.#', '#..##', '#...#', '#..##', '.##.#'],
  e: ['.....', '.....', '.###.', '#...#', '#####', '#....', '.###.'],
  l: ['.##..', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  p: ['.....', '####.', '#...#', '#...#', '####.', '#....', '#....'],
  r: ['.....', '.....', '#.##.', '##..#', '#....', '#....', '#....'],
  v: ['.....', '.....', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  i: ['..#..', '.....', '.##..', '..#..', '..#..', '..#..', '.###.'],
  w: ['.....', '.....', '#...#', '#...#', '#.#.#', '#.#.#', '.#.#.'],
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
  const { width: labelWidth, height: labelHeight } = plateSize(LABEL_TEXT, dotSize(width));
  const inset = Math.round(width * 0.02);
  return { left: width - inset - labelWidth, top: height - inset - labelHeight, width: labelWidth, height: labelHeight };
}

function plateSize(text: string, dot: number): { width: number; height: number } {
  return { width: (text.length * (GLYPH_WIDTH + 1) - 1 + 2 * PLATE_PADDING) * dot, height: (GLYPH_HEIGHT + 2 * PLATE_PADDING) * dot };
}

/** The label as straight RGBA pixels, sized for a picture of this width. */
export function renderLabel(imageWidth: number): RgbaImage {
  return renderText(LABEL_TEXT, dotSize(imageWidth));
}


function renderText(text: string, dot: number): RgbaImage {
  const { width, height } = plateSize(text, dot);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(PLATE, i * 4);
  [...text].forEach((char, index) => {
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

/**
 * Whether a picture carries the corner mark where renderLabel/labelPlacement put it: the pixels under the mark's ink
 * are clearly darker than those under its plate alone. The compliance report reads marks from the pixels this way.
 */
export function hasPreviewMark(image: RgbaImage): boolean {
  const at = labelPlacement(image.width, image.height);
  if (at.left < 0 || at.top < 0) return false;
  const template = renderLabel(image.width);
  let ink = 0, inkCount = 0, plate = 0, plateCount = 0;
  for (let y = 0; y < template.height; y++) {
    for (let x = 0; x < template.width; x++) {
      const t = (y * template.width + x) * 4;
      const i = ((at.top + y) * image.width + at.left + x) * 4;
      const light = image.data[i]! + image.data[i + 1]! + image.data[i + 2]!;
      if (template.data[t + 3] === INK[3]) {
        ink += light;
        inkCount++;
      } else {
        plate += light;
        plateCount++;
      }
    }
  }
  if (!inkCount || !plateCount) return false;
  // The ink is 40/255 grey at 75% over the picture; the plate is white at 55%: on any picture, 3 × 60 apart at least.
  return plate / plateCount - ink / inkCount > 3 * 60;
}
