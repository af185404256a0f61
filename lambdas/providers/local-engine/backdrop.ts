// The studio: a soft vertical gradient of one colour (light from above, a darker floor), and for on-model pictures a
// plain stylised mannequin drawn in figure space (see framing.ts).
import sharp, { type Sharp } from 'sharp';
import type { Size } from '../ports.js';
import { cssColour, mixColours, type Rgb } from './colours.js';
import type { View } from './framing.js';

export const STUDIO_GREY: Rgb = { r: 236, g: 233, b: 228 };
const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };

// Figure space: one unit from the head's top to the feet, x = 0 on the centre line. Right half; mirrored.
const HEAD = { cy: 0.062, rx: 0.043, ry: 0.058 };
const NECK = { halfWidth: 0.018, top: 0.1, bottom: 0.16 };
const TORSO_RIGHT = [[0.03, 0.15], [0.125, 0.185], [0.112, 0.3], [0.082, 0.42], [0.108, 0.53]] as const;
const LEG_RIGHT = [[0.005, 0.52], [0.105, 0.52], [0.085, 0.75], [0.075, 0.97], [0.035, 0.97], [0.02, 0.75]] as const;
const ARM_RIGHT = [[0.118, 0.18], [0.145, 0.2], [0.16, 0.36], [0.165, 0.5], [0.14, 0.5], [0.135, 0.36], [0.115, 0.24]] as const;

function points(shape: ReadonlyArray<readonly [number, number]>, mirror = 1): string {
  return shape.map(([x, y]) => `${x * mirror},${y}`).join(' ');
}

function figureSvg(view: View, colour: Rgb, widthFactor: number): string {
  const torso = [...TORSO_RIGHT.map(([x, y]) => [-x, y] as const), ...[...TORSO_RIGHT].reverse()];
  return (
    `<g transform="translate(${view.offsetX} ${view.offsetY}) scale(${view.scale * widthFactor} ${view.scale})" fill="${cssColour(colour)}">` +
    `<ellipse cx="0" cy="${HEAD.cy}" rx="${HEAD.rx}" ry="${HEAD.ry}"/>` +
    `<rect x="${-NECK.halfWidth}" y="${NECK.top}" width="${2 * NECK.halfWidth}" height="${NECK.bottom - NECK.top}"/>` +
    `<polygon points="${points(torso)}"/>` +
    [1, -1].map((side) => `<polygon points="${points(LEG_RIGHT, side)}"/><polygon points="${points(ARM_RIGHT, side)}"/>`).join('') +
    `</g>`
  );
}

/**
 * The studio backdrop in `colour` (RGB, exactly `size`), with the mannequin when a view is given; `figureWidth` < 1
 * narrows the mannequin (a side view).
 */
export function studioBackdrop(size: Size, colour: Rgb, figureView?: View, figureWidth = 1): Sharp {
  const { width, height } = size;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="studio" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="${cssColour(mixColours(colour, WHITE, 0.35))}"/>` +
    `<stop offset="0.7" stop-color="${cssColour(colour)}"/>` +
    `<stop offset="1" stop-color="${cssColour(mixColours(colour, BLACK, 0.12))}"/>` +
    `</linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#studio)"/>` +
    (figureView ? figureSvg(figureView, mixColours(colour, BLACK, 0.16), figureWidth) : '') +
    `</svg>`;
  return sharp(Buffer.from(svg)).removeAlpha();
}
