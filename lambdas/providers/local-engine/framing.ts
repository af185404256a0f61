// Where the product goes in an on-model picture. A stylised figure stands in a "figure space" one unit tall (head top
// y = 0, feet y = 1, centre line x = 0); the product type picks the product's region on the figure and the camera zoom
// picks the part of figure space the picture shows.
import type { OnModelImageRequest, Size } from '../ports.js';

interface Region {
  /** Centre, in figure units. */
  cx: number;
  cy: number;
  width: number;
  height: number;
}

/** Clothing covers the torso from the shoulders to the hips; jewelry sits at the neckline. */
const PRODUCT_REGIONS: Readonly<Record<OnModelImageRequest['productType'], Region>> = {
  clothing: { cx: 0, cy: 0.345, width: 0.3, height: 0.4 },
  jewelry: { cx: 0, cy: 0.185, width: 0.11, height: 0.1 },
};

/** What a camera zoom shows: the view's height in figure units and its vertical centre. */
type Shot = 'full-body' | 'mid-shot' | 'close-up';
const SHOTS: Readonly<Record<Exclude<Shot, 'close-up'>, { height: number; cy: number }>> = {
  'full-body': { height: 1.12, cy: 0.5 },
  'mid-shot': { height: 0.78, cy: 0.36 },
};
/** In a close-up the product's region fills this share of the picture's height (or width, whichever binds first). */
const CLOSE_UP_FILL = { height: 0.8, width: 0.9 };

/** 'auto' frames clothing as a mid-shot and jewelry as a close-up. */
function shotFor(request: Pick<OnModelImageRequest, 'productType' | 'cameraZoom'>): Shot {
  if (request.cameraZoom !== 'auto') return request.cameraZoom;
  return request.productType === 'jewelry' ? 'close-up' : 'mid-shot';
}

/** Maps figure space to pixels: pixel = (x·scale + offsetX, y·scale + offsetY). */
export interface View {
  scale: number;
  offsetX: number;
  offsetY: number;
}

export interface Framing {
  view: View;
  /** The product's region in pixels (the product is fitted inside it). */
  productBox: { left: number; top: number; width: number; height: number };
}

/** Between full body and mid-shot: knees up. The batch angles Front, Back and Side are framed so. */
export const THREE_QUARTER_SHOT = { height: 0.92, cy: 0.42 } as const;

/** `custom` replaces the zoom's view (height in figure units, vertical centre) for compositions of their own. */
export function frame(
  request: Pick<OnModelImageRequest, 'productType' | 'cameraZoom'>,
  size: Size,
  custom?: { height: number; cy: number },
): Framing {
  const region = PRODUCT_REGIONS[request.productType];
  const shot = shotFor(request);
  const aspect = size.height / size.width;
  const viewHeight = custom
    ? custom.height
    : shot === 'close-up'
      ? Math.max(region.height / CLOSE_UP_FILL.height, (region.width / CLOSE_UP_FILL.width) * aspect)
      : SHOTS[shot].height;
  const viewCy = custom ? custom.cy : shot === 'close-up' ? region.cy : SHOTS[shot].cy;
  const scale = size.height / viewHeight;
  const view = { scale, offsetX: size.width / 2 - region.cx * scale, offsetY: size.height / 2 - viewCy * scale };
  // Never wider or taller than the picture, whatever its aspect ratio.
  const width = Math.min(region.width * scale, size.width);
  const height = Math.min(region.height * scale, size.height);
  const left = Math.min(Math.max(0, region.cx * scale + view.offsetX - width / 2), size.width - width);
  const top = Math.min(Math.max(0, region.cy * scale + view.offsetY - height / 2), size.height - height);
  return { view, productBox: { left, top, width, height } };
}
