// Renders a perfectly looping clip from one picture, moved by a periodic motion preset (motion.ts), one frame at a
// time in JS (warp.ts), piped as raw RGB into ffmpeg (libx264, yuv420p, faststart) at a constant 24 fps, so the
// duration is exact. Two kinds of picture:
// - a product photo on a plain background: the product is cut out and moves over a studio backdrop in the photo's
//   own background colour;
// - any other picture (a scene, e.g. an on-model picture): the whole picture moves like a camera would. Where the
//   camera sees past the picture's edge, the picture's edge pixels are continued (a studio wall goes on as itself).
// 360 Spin always turns a cut-out product (from a scene, its subject cut from the studio around it), never the whole
// frame, about the product's own upright axis (its centre of mass) held at the frame's centre: its width follows
// cos(angle) down to a side view's, it is shaded as it turns edge-on, a highlight sweeps across it (the way it turns),
// and the back half of the turn shows the product's back: the cut-out mirrored and darkened, as light from the front
// would leave it. Every term is periodic in the clip, so the loop stays exact.
//
// Framing (frameScene): what the seller sells stays in the frame in every pose of the clip. For a cut-out that is all
// of it; for a scene, its subject (the model, whose head is its top, wearing the product), found by the one cutout
// (productAlphaFor). The scene is shown as large as it would like (a cut-out filling PRODUCT_FILL of the frame, a
// picture covering PICTURE_COVER of it) unless a pose would then take the subject out; then smaller, just enough.
import { DELIVERY_FPS } from '../../media/normalize.js';
import { openH264Encoder } from '../../media/raw-video.js';
import type { Size } from '../ports.js';
import { STUDIO_GREY, studioBackdrop } from './backdrop.js';
import type { Rgb } from './colours.js';
import { cutOutProduct, hasPlainBackground, productAlphaFor, type Cutout } from './cutout.js';
import { labelPlacement, renderLabel } from './label.js';
import { pieces } from './masks.js';
import { cyclesIn, motionStyle, MOTIONS, poseAt, type MotionPreset, type Pose } from './motion.js';
import { decodeRgba, openRgba, toRgba, type RgbaImage } from './raster.js';
import { drawLayer, toLayer, type Affine, type Layer } from './warp.js';

/** At rest a cut-out product fits inside this share of the frame's width and height. */
const PRODUCT_FILL = 0.72;
/**
 * At rest a whole picture covers this multiple of the frame, so the widest swing (Pivot's 3.5° about the centre,
 * Catwalk's 2.5% sway plus 1.5°) never shows its edges, unless that would take its subject out of the frame.
 */
const PICTURE_COVER = 1.2;
/** Larger source pictures are shrunk to this first. */
const SOURCE_MAX_SIDE = 2048;
/** What must stay in the frame keeps at least this share of the frame's short side from its edges. */
const KEEP_MARGIN = 0.03;
/**
 * A scene's subject that runs off the picture (a mid-shot's body below the waist) may leave the frame on that side by
 * at most this share of its own size: the rest of it, the product it wears included, stays in.
 */
const OPEN_SIDE_ALLOWANCE = 0.1;
/** A piece of the cutout belongs to the subject from this share of its largest piece (smaller ones are specks). */
const SUBJECT_PIECE_SHARE = 0.01;
/** The subject is found on a copy of the picture this large (its box is all the framing needs). */
const SUBJECT_ANALYSIS_SIDE = 512;

export interface ClipRequest {
  image: Buffer;
  preset: MotionPreset;
  durationSeconds: number;
  size: Size;
  /** Which output of the job this is (0-based): each renders its own variant of the preset (motion.ts). */
  variant?: number;
}

/** A scene's subject is spun on its own only when it covers less than this share of the picture. */
const SUBJECT_MAX_SHARE = 0.8;
/** 360 Spin: the product's light at edge-on (1 facing the camera), and the highlight's strength and width. */
const SPIN_SHADE = 0.7;
const SPIN_HIGHLIGHT = { gain: 0.3, width: 0.1 };
/** 360 Spin: how much light the product's back keeps (it faces away from the studio's key light). */
const SPIN_BACK_LIGHT = 0.62;

interface Point {
  x: number;
  y: number;
}

/** A box in source pixels. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** What the framing needs to know of a scene, in source pixels. */
export interface SceneGeometry {
  width: number;
  height: number;
  /** The point the motion turns and scales around. */
  anchor: Point;
  /** What must stay inside the frame in every pose. */
  keep?: Rect;
  /** The scale (source to frame pixels, at a pose's zoom 1) the scene would like, and the source point it would like at the frame's centre. */
  scale: number;
  centre: Point;
  /** A picture: its edges should stay out of the frame where the subject allows. */
  picture: boolean;
}

interface Scene extends SceneGeometry {
  /** What moves: the picture, or the product cut out of it, at its decoded size. */
  source: RgbaImage;
  /** The product's back (the cut-out darkened; the turn mirrors it), for the back half of a turn. */
  back?: RgbaImage;
  backdrop: Rgb;
}

/** The pose as a 2×2 matrix (rotation and scale) and a shift in frame pixels. */
function poseMatrix(pose: Pose, { width, height }: Size) {
  const cos = Math.cos(pose.rotation);
  const sin = Math.sin(pose.rotation);
  return { a: cos * pose.scaleX, b: -sin * pose.scaleY, c: sin * pose.scaleX, d: cos * pose.scaleY, dx: pose.shiftX * width, dy: pose.shiftY * height };
}

/**
 * Where a source point lands in the frame, less the centre's part: frame = g − scale·centre, per axis. A source point
 * k lands at F0 + scale·(anchor − centre) + shift + scale·M·(k − anchor), F0 being the frame's centre.
 */
function landing(scene: SceneGeometry, pose: ReturnType<typeof poseMatrix>, scale: number, size: Size, k: Point): Point {
  const u = k.x - scene.anchor.x;
  const v = k.y - scene.anchor.y;
  return {
    x: size.width / 2 + pose.dx + scale * (scene.anchor.x + pose.a * u + pose.b * v),
    y: size.height / 2 + pose.dy + scale * (scene.anchor.y + pose.c * u + pose.d * v),
  };
}

const corners = ({ left, top, right, bottom }: Rect): Point[] => [
  { x: left, y: top },
  { x: right, y: top },
  { x: left, y: bottom },
  { x: right, y: bottom },
];

/**
 * The scale and centre that show the scene as it would like to be shown while its `keep` box stays KEEP_MARGIN inside
 * the frame in every pose: the largest scale up to the preferred one for which a centre exists, and the centre nearest
 * the preferred one, preferring (for a picture) one where the picture's edges stay out of the frame.
 */
export function frameScene(scene: SceneGeometry, poses: readonly Pose[], size: Size): { scale: number; centre: Point } {
  const margin = KEEP_MARGIN * Math.min(size.width, size.height);
  const matrices = poses.map((pose) => poseMatrix(pose, size));
  let scale = scene.scale;
  for (let attempt = 0; attempt < 200; attempt++, scale *= 0.98) {
    // Per axis the centre enters only as −scale·centre, so each constraint bounds one coordinate.
    const keep = { x: [-Infinity, Infinity], y: [-Infinity, Infinity] };
    const cover = { x: [-Infinity, Infinity], y: [-Infinity, Infinity] };
    for (const pose of matrices) {
      for (const point of scene.keep ? corners(scene.keep) : []) {
        const g = landing(scene, pose, scale, size, point);
        keep.x = [Math.max(keep.x[0]!, (g.x - size.width + margin) / scale), Math.min(keep.x[1]!, (g.x - margin) / scale)];
        keep.y = [Math.max(keep.y[0]!, (g.y - size.height + margin) / scale), Math.min(keep.y[1]!, (g.y - margin) / scale)];
      }
      if (!scene.picture) continue;
      // The picture's edge that lands on the frame's left (its right one when the pose mirrors it) stays left of the frame, and so on.
      const [leftX, rightX] = pose.a >= 0 ? [0, scene.width] : [scene.width, 0];
      const [topY, bottomY] = pose.d >= 0 ? [0, scene.height] : [scene.height, 0];
      for (const y of [0, scene.height]) {
        cover.x[0] = Math.max(cover.x[0]!, landing(scene, pose, scale, size, { x: leftX, y }).x / scale);
        cover.x[1] = Math.min(cover.x[1]!, (landing(scene, pose, scale, size, { x: rightX, y }).x - size.width) / scale);
      }
      for (const x of [0, scene.width]) {
        cover.y[0] = Math.max(cover.y[0]!, landing(scene, pose, scale, size, { x, y: topY }).y / scale);
        cover.y[1] = Math.min(cover.y[1]!, (landing(scene, pose, scale, size, { x, y: bottomY }).y - size.height) / scale);
      }
    }
    if (keep.x[0]! > keep.x[1]! || keep.y[0]! > keep.y[1]!) continue;
    const choose = (preferred: number, [low, high]: number[], [coverLow, coverHigh]: number[]) => {
      // Nearest the preferred centre where the picture covers the frame; where it can't, the least uncovered one.
      const covered = coverLow! <= coverHigh! ? Math.min(coverHigh!, Math.max(coverLow!, preferred)) : (coverLow! + coverHigh!) / 2;
      const wanted = scene.picture && Number.isFinite(covered) ? covered : preferred;
      return Math.min(high!, Math.max(low!, wanted));
    };
    return { scale, centre: { x: choose(scene.centre.x, keep.x, cover.x), y: choose(scene.centre.y, keep.y, cover.y) } };
  }
  return { scale, centre: scene.centre };
}

/**
 * The box of a scene's subject (every piece the cutout finds of at least SUBJECT_PIECE_SHARE of the largest: a model's
 * hair is a piece of its own when the face is as pale as the studio), outside the corner where the engine's own
 * pictures carry their preview mark, with each side that runs off the picture moved in by OPEN_SIDE_ALLOWANCE of its
 * size; undefined when there is none.
 */
async function subjectBox(picture: RgbaImage): Promise<Rect | undefined> {
  const factor = Math.min(1, SUBJECT_ANALYSIS_SIDE / Math.max(picture.width, picture.height));
  const small = factor < 1 ? await toRgba(openRgba(picture).resize({ width: Math.max(1, Math.round(picture.width * factor)), height: Math.max(1, Math.round(picture.height * factor)), fit: 'fill' })) : picture;
  const cut = await productAlphaFor(small).catch(() => undefined);
  if (!cut) return undefined;
  const { width, height } = small;
  const mask = new Uint8Array(width * height);
  const mark = labelPlacement(picture.width, picture.height);
  const [markLeft, markTop] = [Math.floor(mark.left * factor) - 2, Math.floor(mark.top * factor) - 2];
  for (let p = 0; p < mask.length; p++) mask[p] = cut.alpha[p]! >= 128 && !(p % width >= markLeft && p / width >= markTop) ? 1 : 0;
  const { labels, sizes } = pieces(mask, width);
  const largest = Math.max(0, ...sizes.slice(1));
  if (largest < 0.01 * width * height) return undefined;
  let left = width, top = height, right = -1, bottom = -1;
  for (let p = 0; p < labels.length; p++) {
    if (!labels[p] || sizes[labels[p]!]! < SUBJECT_PIECE_SHARE * largest) continue;
    const x = p % width;
    const y = (p - x) / width;
    left = Math.min(left, x);
    right = Math.max(right, x + 1);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y + 1);
  }
  const edge = 0.01;
  const [boxWidth, boxHeight] = [right - left, bottom - top];
  const box = {
    left: left <= edge * width ? left + OPEN_SIDE_ALLOWANCE * boxWidth : left,
    right: right >= (1 - edge) * width ? right - OPEN_SIDE_ALLOWANCE * boxWidth : right,
    top: top <= edge * height ? top + OPEN_SIDE_ALLOWANCE * boxHeight : top,
    bottom: bottom >= (1 - edge) * height ? bottom - OPEN_SIDE_ALLOWANCE * boxHeight : bottom,
  };
  return { left: box.left * (picture.width / width), right: box.right * (picture.width / width), top: box.top * (picture.height / height), bottom: box.bottom * (picture.height / height) };
}

function productScene({ product, background }: Cutout, preset: MotionPreset, { width, height }: Size): Scene {
  const spin = preset === '360 Spin';
  // A turntable turns about the product's own axis, held at the frame's centre; anything else is centred.
  const anchor = spin ? { x: uprightAxis(product) * product.width, y: product.height / 2 } : { x: MOTIONS[preset].anchor.x * product.width, y: MOTIONS[preset].anchor.y * product.height };
  return {
    source: product,
    back: spin ? darkened(product, SPIN_BACK_LIGHT) : undefined,
    width: product.width,
    height: product.height,
    anchor,
    keep: { left: 0, top: 0, right: product.width, bottom: product.height },
    scale: Math.min((width * PRODUCT_FILL) / product.width, (height * PRODUCT_FILL) / product.height),
    centre: { x: spin ? anchor.x : product.width / 2, y: product.height / 2 },
    picture: false,
    backdrop: background ?? STUDIO_GREY,
  };
}

async function pictureScene(picture: RgbaImage, { width, height }: Size): Promise<Scene> {
  const centre = { x: picture.width / 2, y: picture.height / 2 };
  const keep = await subjectBox(picture);
  return {
    source: picture,
    width: picture.width,
    height: picture.height,
    anchor: centre,
    ...(keep ? { keep } : {}),
    scale: PICTURE_COVER * Math.max(width / picture.width, height / picture.height),
    centre,
    picture: true,
    backdrop: STUDIO_GREY,
  };
}

/** The product's upright axis: the horizontal centre of its opaque pixels, as a fraction of the image's width. */
export function uprightAxis(image: RgbaImage): number {
  let weight = 0;
  let sum = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const alpha = image.data[(y * image.width + x) * 4 + 3]!;
      weight += alpha;
      sum += alpha * (x + 0.5);
    }
  }
  return weight === 0 ? 0.5 : sum / weight / image.width;
}

/** The image with its colours scaled by `light` (alpha kept). */
function darkened(image: RgbaImage, light: number): RgbaImage {
  const data = Buffer.from(image.data);
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) data[i + c] = Math.round(data[i + c]! * light);
  return { ...image, data };
}

/** A scene's subject for a turntable: cut from the studio around it, when there is a subject to cut. */
async function sceneSubject(picture: RgbaImage): Promise<Cutout | undefined> {
  const cutout = await cutOutProduct(picture).catch(() => undefined);
  if (!cutout || cutout.product.width * cutout.product.height > SUBJECT_MAX_SHARE * picture.width * picture.height) return undefined;
  return cutout;
}

/** The light of each layer column for a turn at `phase`: shaded as it turns edge-on, a highlight sweeping across. */
function spinLight(layer: Layer, phase: number): Float32Array {
  const facing = Math.abs(Math.cos(phase));
  const shade = SPIN_SHADE + (1 - SPIN_SHADE) * facing;
  const centre = (0.5 + 0.45 * Math.sin(phase)) * layer.width;
  const spread = SPIN_HIGHLIGHT.width * layer.width;
  const light = new Float32Array(layer.width);
  for (let u = 0; u < layer.width; u++) light[u] = shade + SPIN_HIGHLIGHT.gain * facing * Math.exp(-(((u - centre) / spread) ** 2));
  return light;
}

/**
 * The source as the layer the warp draws: resized once to the largest scale the clip shows it at (the warp only ever
 * shrinks it), and, for a picture, its edge pixels continued as far as the camera sees past them.
 */
async function preparedLayers(scene: Scene, poses: readonly Pose[], size: Size, framing: { scale: number; centre: Point }) {
  const zoom = Math.max(...poses.map((pose) => Math.max(Math.abs(pose.scaleX), Math.abs(pose.scaleY))));
  const factor = framing.scale * zoom;
  const width = Math.max(1, Math.round(scene.width * factor));
  const height = Math.max(1, Math.round(scene.height * factor));
  // How far past each edge of the source the frame reaches, in source pixels, over every pose.
  const extra = { left: 0, top: 0, right: 0, bottom: 0 };
  if (scene.picture) {
    for (const pose of poses) {
      const m = poseMatrix(pose, size);
      const determinant = m.a * m.d - m.b * m.c;
      for (const f of corners({ left: 0, top: 0, right: size.width, bottom: size.height })) {
        // k = anchor + M⁻¹·((f − F0 − shift)/scale − (anchor − centre))
        const px = (f.x - size.width / 2 - m.dx) / framing.scale - (scene.anchor.x - framing.centre.x);
        const py = (f.y - size.height / 2 - m.dy) / framing.scale - (scene.anchor.y - framing.centre.y);
        const x = scene.anchor.x + (m.d * px - m.b * py) / determinant;
        const y = scene.anchor.y + (-m.c * px + m.a * py) / determinant;
        extra.left = Math.max(extra.left, -x);
        extra.right = Math.max(extra.right, x - scene.width);
        extra.top = Math.max(extra.top, -y);
        extra.bottom = Math.max(extra.bottom, y - scene.height);
      }
    }
  }
  const pad = (source: number) => (source > 0 ? Math.ceil(source * factor) + 2 : 0);
  const padding = { left: pad(extra.left), top: pad(extra.top), right: pad(extra.right), bottom: pad(extra.bottom) };
  const prepare = async (image: RgbaImage) => {
    const resized = await toRgba(openRgba(image).resize({ width, height, fit: 'fill', kernel: 'lanczos3' }));
    if (!padding.left && !padding.top && !padding.right && !padding.bottom) return toLayer(resized);
    return toLayer(await toRgba(openRgba(resized).extend({ ...padding, extendWith: 'copy' })));
  };
  return {
    layer: await prepare(scene.source),
    back: scene.back ? await prepare(scene.back) : undefined,
    // Layer pixel = (source pixel · factor) + padding, per axis (the rounding of the size kept exact).
    toLayer: { x: width / scene.width, y: height / scene.height, left: padding.left, top: padding.top },
  };
}

export async function renderLoopingClip(request: ClipRequest, output: string): Promise<{ frames: number; cycles: number }> {
  const { preset, size } = request;
  const { width, height } = size;
  const frames = Math.round(request.durationSeconds * DELIVERY_FPS);
  const style = motionStyle(request.variant ?? 0);
  const cycles = cyclesIn(preset, request.durationSeconds, style);
  const poses = Array.from({ length: frames }, (_, index) => poseAt(preset, index, frames, cycles, style));
  const picture = await decodeRgba(request.image, SOURCE_MAX_SIDE);
  const subject = hasPlainBackground(picture) ? await cutOutProduct(picture) : preset === '360 Spin' ? await sceneSubject(picture) : undefined;
  const scene = subject ? productScene(subject, preset, size) : await pictureScene(picture, size);
  const framing = frameScene(scene, poses, size);
  const { layer, back, toLayer: scaleToLayer } = await preparedLayers(scene, poses, size, framing);
  const backdrop = await studioBackdrop(size, scene.backdrop).raw().toBuffer();
  const label = toLayer(renderLabel(width));
  const labelAt = labelPlacement(width, height);
  const labelTransform: Affine = { a: 1, b: 0, c: 0, d: 1, e: labelAt.left, f: labelAt.top };
  // The anchor in layer pixels, and where it sits in the frame at rest.
  const anchorInLayer = { x: scene.anchor.x * scaleToLayer.x + scaleToLayer.left, y: scene.anchor.y * scaleToLayer.y + scaleToLayer.top };
  const anchorInFrame = { x: width / 2 + framing.scale * (scene.anchor.x - framing.centre.x), y: height / 2 + framing.scale * (scene.anchor.y - framing.centre.y) };

  const encoder = openH264Encoder(output, { width, height, pixelFormat: 'rgb24', fps: DELIVERY_FPS });
  try {
    for (let index = 0; index < frames; index++) {
      const pose = poseMatrix(poses[index]!, size);
      // Layer pixels to frame pixels: the pose's matrix at the framing's scale, undoing the layer's own scale.
      const a = (framing.scale * pose.a) / scaleToLayer.x;
      const b = (framing.scale * pose.b) / scaleToLayer.y;
      const c = (framing.scale * pose.c) / scaleToLayer.x;
      const d = (framing.scale * pose.d) / scaleToLayer.y;
      const frame = { data: Buffer.from(backdrop), width, height };
      // The back half of a turn (scaleX < 0) shows the product's back; the light follows the turn, its way round.
      const phase = ((2 * Math.PI * index) / frames) * cycles * style.direction;
      drawLayer(
        frame,
        back && poses[index]!.scaleX < 0 ? back : layer,
        {
          a,
          b,
          c,
          d,
          e: anchorInFrame.x + pose.dx - (a * anchorInLayer.x + b * anchorInLayer.y),
          f: anchorInFrame.y + pose.dy - (c * anchorInLayer.x + d * anchorInLayer.y),
        },
        back ? spinLight(layer, phase) : undefined,
      );
      drawLayer(frame, label, labelTransform);
      await encoder.write(frame.data);
    }
    await encoder.finish();
  } catch (error) {
    await encoder.abort();
    throw error;
  }
  return { frames, cycles };
}
