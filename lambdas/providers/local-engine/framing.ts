// What part of figure space a picture shows. A person-form stands in a "figure space" one unit tall (head top y = 0,
// feet y = 1, centre line x = 0); the camera zoom picks the part of figure space the picture shows, and a close-up
// frames the product's focus region (placement.ts).
import type { OnModelImageRequest, Size } from '../ports.js';

/** A region of figure space: centre and size, in figure units. */
export interface Region {
  cx: number;
  cy: number;
  width: number;
  height: number;
}

/** What a camera zoom shows: the view's height in figure units and its vertical centre. */
export type Shot = 'full-body' | 'mid-shot' | 'close-up';
const SHOTS: Readonly<Record<Exclude<Shot, 'close-up'>, { height: number; cy: number }>> = {
  'full-body': { height: 1.12, cy: 0.5 },
  'mid-shot': { height: 0.78, cy: 0.36 },
};
/** In a close-up the focus region fills this share of the picture's height (or width, whichever binds first). */
const CLOSE_UP_FILL = { height: 0.8, width: 0.9 };

/** 'auto' frames clothing as a mid-shot and jewelry as a close-up. */
export function shotFor(request: Pick<OnModelImageRequest, 'productType' | 'cameraZoom'>): Shot {
  if (request.cameraZoom !== 'auto') return request.cameraZoom;
  return request.productType === 'jewelry' ? 'close-up' : 'mid-shot';
}

/** Maps figure space to pixels: pixel = (x·scale + offsetX, y·scale + offsetY). */
export interface View {
  scale: number;
  offsetX: number;
  offsetY: number;
}

/** Between full body and mid-shot: knees up. The batch angles Front, Back and Side are framed so. */
export const THREE_QUARTER_SHOT = { height: 0.92, cy: 0.42 } as const;

/** The view of a shot (or of `custom`: height in figure units, vertical centre) for a picture of this size. */
export function frame(shot: Shot, size: Size, focus: Region, custom?: { height: number; cy: number }): View {
  const aspect = size.height / size.width;
  const closeUp = !custom && shot === 'close-up';
  const viewHeight = custom
    ? custom.height
    : closeUp
      ? Math.max(focus.height / CLOSE_UP_FILL.height, (focus.width / CLOSE_UP_FILL.width) * aspect)
      : SHOTS[shot as Exclude<Shot, 'close-up'>].height;
  const scale = size.height / viewHeight;
  const viewCy = custom ? custom.cy : closeUp ? focus.cy : SHOTS[shot as Exclude<Shot, 'close-up'>].cy;
  const viewCx = closeUp ? focus.cx : 0;
  return { scale, offsetX: size.width / 2 - viewCx * scale, offsetY: size.height / 2 - viewCy * scale };
}
