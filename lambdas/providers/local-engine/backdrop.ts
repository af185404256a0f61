// The studio: a soft vertical gradient of one colour (light from above, a darker floor), and for on-model pictures a
// plain person-form drawn in figure space (see framing.ts): skin tone, hair colour and hairstyle, and a pose
// silhouette (standing, walking, sitting on a stool) from the model description (persona.ts).
import sharp, { type Sharp } from 'sharp';
import type { Size } from '../ports.js';
import { cssColour, mixColours, type Rgb } from './colours.js';
import type { View } from './framing.js';
import type { PersonForm, Pose } from './persona.js';

export const STUDIO_GREY: Rgb = { r: 236, g: 233, b: 228 };
const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };

type Shape = ReadonlyArray<readonly [number, number]>;

// Figure space: one unit from the head's top to the feet, x = 0 on the centre line. Right half; mirrored.
export const HEAD = { cy: 0.062, rx: 0.043, ry: 0.058 };
/** The ears, where earrings hang (right ear; the left mirrors it). */
export const EAR = { cx: 0.044, cy: 0.07, rx: 0.008, ry: 0.015 };
const NECK = { halfWidth: 0.018, top: 0.1, bottom: 0.16 };
/** The neckline: where a garment's top and a necklace sit. */
export const NECKLINE_Y = 0.152;
const TORSO_RIGHT: Shape = [[0.03, 0.15], [0.125, 0.185], [0.112, 0.3], [0.082, 0.42], [0.108, 0.53]];

interface PoseShape {
  /** Each leg and arm as drawn on the right (viewer's right); `left` overrides the mirror image. */
  legRight: Shape;
  legLeft?: Shape;
  armRight: Shape;
  armLeft?: Shape;
  /** The right hand's centre, where a ring is worn. */
  hand: readonly [number, number];
  handLeft?: readonly [number, number];
  /** A stool under the form (sitting). */
  stool?: { top: number; halfWidth: number };
}

const mirror = (shape: Shape): Shape => shape.map(([x, y]) => [-x, y] as const);

export const POSE_SHAPES: Readonly<Record<Pose, PoseShape>> = {
  standing: {
    legRight: [[0.005, 0.52], [0.105, 0.52], [0.085, 0.75], [0.075, 0.97], [0.035, 0.97], [0.02, 0.75]],
    armRight: [[0.118, 0.18], [0.145, 0.2], [0.16, 0.36], [0.165, 0.49], [0.14, 0.49], [0.135, 0.36], [0.115, 0.24]],
    hand: [0.153, 0.515],
  },
  // Mid-stride: the right leg forward and out, the left back; the arms swing against the legs.
  walking: {
    legRight: [[0.005, 0.52], [0.105, 0.52], [0.11, 0.75], [0.135, 0.97], [0.09, 0.97], [0.045, 0.75]],
    legLeft: [[-0.005, 0.52], [-0.105, 0.52], [-0.075, 0.74], [-0.04, 0.93], [-0.005, 0.93], [-0.02, 0.74]],
    armRight: [[0.118, 0.18], [0.145, 0.2], [0.15, 0.36], [0.135, 0.48], [0.11, 0.48], [0.125, 0.36], [0.115, 0.24]],
    armLeft: [[-0.118, 0.18], [-0.145, 0.2], [-0.175, 0.35], [-0.2, 0.47], [-0.176, 0.48], [-0.15, 0.36], [-0.115, 0.24]],
    hand: [0.123, 0.505],
    handLeft: [-0.19, 0.495],
  },
  // On a stool, seen from the front: thighs foreshortened towards the camera, shins down, hands on the knees.
  sitting: {
    legRight: [[0.005, 0.52], [0.112, 0.52], [0.122, 0.62], [0.105, 0.9], [0.06, 0.9], [0.045, 0.64], [0.01, 0.62]],
    armRight: [[0.118, 0.18], [0.145, 0.2], [0.16, 0.36], [0.13, 0.55], [0.105, 0.55], [0.135, 0.36], [0.115, 0.24]],
    hand: [0.118, 0.575],
    stool: { top: 0.56, halfWidth: 0.16 },
  },
};

function points(shape: Shape): string {
  return shape.map(([x, y]) => `${x},${y}`).join(' ');
}

function hairBehind(form: PersonForm, colour: string): string {
  // Long hair falls behind the shoulders.
  return form.hairstyle === 'long' ? `<path d="M-0.052 0.05 L-0.062 0.215 L0.062 0.215 L0.052 0.05 Z" fill="${colour}"/>` : '';
}

function hairOnTop(form: PersonForm, colour: string): string {
  const cap = `<ellipse cx="0" cy="${HEAD.cy - 0.012}" rx="${HEAD.rx + 0.004}" ry="${HEAD.ry - 0.004}" fill="${colour}"/>`;
  const bun = form.hairstyle === 'bun' ? `<circle cx="0" cy="-0.004" r="0.022" fill="${colour}"/>` : '';
  return bun + cap;
}

function figureSvg(view: View, form: PersonForm, backdrop: Rgb, widthFactor: number): string {
  const shape = POSE_SHAPES[form.pose];
  const skin = cssColour(form.skin);
  const shade = cssColour(mixColours(form.skin, BLACK, 0.12));
  const hair = cssColour(form.hair);
  const torso = [...mirror(TORSO_RIGHT), ...[...TORSO_RIGHT].reverse()];
  const handRight = shape.hand;
  const handLeft = shape.handLeft ?? ([-handRight[0], handRight[1]] as const);
  const stool = shape.stool
    ? `<rect x="${-shape.stool.halfWidth}" y="${shape.stool.top}" width="${2 * shape.stool.halfWidth}" height="0.04" fill="${cssColour(mixColours(backdrop, BLACK, 0.35))}"/>` +
      [-1, 1].map((side) => `<rect x="${side * shape.stool!.halfWidth * 0.8 - 0.008}" y="${shape.stool!.top}" width="0.016" height="${0.97 - shape.stool!.top}" fill="${cssColour(mixColours(backdrop, BLACK, 0.3))}"/>`).join('')
    : '';
  return (
    `<g transform="translate(${view.offsetX} ${view.offsetY}) scale(${view.scale * widthFactor} ${view.scale})">` +
    stool +
    hairBehind(form, hair) +
    `<g fill="${skin}">` +
    `<polygon points="${points(shape.legRight)}"/><polygon points="${points(shape.legLeft ?? mirror(shape.legRight))}"/>` +
    `<polygon points="${points(torso)}"/>` +
    `<polygon points="${points(shape.armRight)}"/><polygon points="${points(shape.armLeft ?? mirror(shape.armRight))}"/>` +
    [handRight, handLeft].map(([x, y]) => `<ellipse cx="${x}" cy="${y}" rx="0.016" ry="0.026"/>`).join('') +
    `<rect x="${-NECK.halfWidth}" y="${NECK.top}" width="${2 * NECK.halfWidth}" height="${NECK.bottom - NECK.top}" fill="${shade}"/>` +
    `</g>` +
    hairOnTop(form, hair) +
    `<ellipse cx="0" cy="${HEAD.cy + 0.008}" rx="${HEAD.rx - 0.004}" ry="${HEAD.ry - 0.012}" fill="${skin}"/>` +
    [1, -1].map((side) => `<ellipse cx="${side * EAR.cx}" cy="${EAR.cy}" rx="${EAR.rx}" ry="${EAR.ry}" fill="${shade}"/>`).join('') +
    `</g>`
  );
}

/**
 * The studio backdrop in `colour` (RGB, exactly `size`), with the person-form when a view and form are given;
 * `figureWidth` < 1 narrows the form (a side view).
 */
export function studioBackdrop(size: Size, colour: Rgb, figure?: { view: View; form: PersonForm; width?: number }): Sharp {
  const { width, height } = size;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="studio" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="${cssColour(mixColours(colour, WHITE, 0.35))}"/>` +
    `<stop offset="0.7" stop-color="${cssColour(colour)}"/>` +
    `<stop offset="1" stop-color="${cssColour(mixColours(colour, BLACK, 0.12))}"/>` +
    `</linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#studio)"/>` +
    (figure ? figureSvg(figure.view, figure.form, colour, figure.width ?? 1) : '') +
    `</svg>`;
  return sharp(Buffer.from(svg)).removeAlpha();
}
