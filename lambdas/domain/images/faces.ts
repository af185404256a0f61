// Counting the faces in a picture, offline: the SSD MobileNet v1 face detector of `@vladmandic/face-api` 1.7.15 (MIT;
// its weights ship inside the npm package, under model/), on TensorFlow.js's WASM backend (the runtime the ESRGAN
// upscale already uses; face-api 1.7.15 is built against tfjs 4.22, the version installed). face-api is pinned exactly
// in package.json, and the weights are checked against their SHA-256 before they are loaded, so a changed file is
// refused rather than silently giving other counts. Nothing is downloaded: the weights are decoded from the bytes
// read and checked here (loadFromWeightMap), never fetched by URL.
//
// Deployed, a function that checks portraits (routes.ts: `faces`) carries a folder `faces/` beside its index.mjs
// (lib/native-modules.ts, facesAssetCommands): detector.cjs (face-api's node-wasm build bundled with TensorFlow.js),
// wasm/ (tfjs-backend-wasm's binaries) and model/ (the two files above).
//
// A saved model's portrait must show one person (lambdas/domain/models/create.ts): zero or several faces are refused.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { packageFolder } from '../../providers/local-engine/esrgan-model.js';

/** The detector this code was measured with (bench/faces.ts): the package, its two files and their SHA-256. */
export const FACE_MODEL = {
  name: 'SSD MobileNet v1',
  package: '@vladmandic/face-api',
  version: '1.7.15',
  manifest: { file: 'model/ssd_mobilenetv1_model-weights_manifest.json', sha256: '888f744dffbc84f5f060d1f8427d9742341943a2dfaaf9205d10029b7e7a2955' },
  weights: { file: 'model/ssd_mobilenetv1_model.bin', sha256: '2835640602d53718aa6ae9a42896327eaa21beefed056c218d32ca7d79e1e2f8' },
} as const;

/** The folder a deployed function carries beside its bundle: detector.cjs, wasm/ and model/. */
export const FACE_ASSET_FOLDER = 'faces';
export const FACE_DETECTOR_FILE = 'detector.cjs';

/** A detection counts as a face from this score (face-api's own default for SSD MobileNet v1). */
const MIN_CONFIDENCE = 0.5;
/** Pictures are scaled down to at most this many pixels on their longest side before detection (the net sees 512). */
const DETECTION_SIDE = 1024;

interface WeightEntry {
  name: string;
  shape: number[];
  dtype: string;
}
interface FaceApi {
  tf: {
    setWasmPaths(prefix: string): void;
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor3d(values: Int32Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
    io: { decodeWeights(buffer: ArrayBuffer, specs: WeightEntry[]): Record<string, unknown> };
  };
  nets: { ssdMobilenetv1: { loadFromWeightMap(weights: Record<string, unknown>): void } };
  SsdMobilenetv1Options: new (options: { minConfidence: number }) => unknown;
  detectAllFaces(input: unknown, options: unknown): Promise<Array<{ score: number }>>;
}

/** The file's bytes, refused unless they are exactly the measured ones. */
async function readVerified(folder: string, { file, sha256 }: { file: string; sha256: string }): Promise<Buffer> {
  const path = join(folder, file);
  const bytes = await readFile(path);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== sha256) throw new Error(`${FACE_MODEL.name} file ${path} has SHA-256 ${digest}, expected ${sha256}: refusing to load it.`);
  return bytes;
}

/** The detector module (face-api's node-wasm build), tfjs-backend-wasm's binaries, and the folder holding model/. */
export interface FaceAssets {
  detector: string;
  wasm: string;
  model: string;
}

/** Counts the faces in a picture's bytes. */
export type FaceCounter = (bytes: Buffer) => Promise<number>;

let detector: Promise<FaceCounter> | undefined;

/** Where the detector, the WASM binaries and the model files are: beside the bundle when deployed, else installed. */
function assets(): FaceAssets {
  const deployed = join(dirname(fileURLToPath(import.meta.url)), FACE_ASSET_FOLDER);
  if (existsSync(join(deployed, FACE_DETECTOR_FILE))) return { detector: join(deployed, FACE_DETECTOR_FILE), wasm: join(deployed, 'wasm'), model: deployed };
  // The node-wasm build: it takes @tensorflow/tfjs and its WASM backend from the installed packages.
  return {
    detector: createRequire(import.meta.url).resolve(`${FACE_MODEL.package}/dist/face-api.node-wasm.js`),
    wasm: join(packageFolder('@tensorflow/tfjs-backend-wasm'), 'dist'),
    model: packageFolder(FACE_MODEL.package),
  };
}

/** The detector from `paths`, its weights checked, ready to count faces. */
export async function openFaceDetector(paths: FaceAssets): Promise<FaceCounter> {
  const faceapi = createRequire(import.meta.url)(paths.detector) as FaceApi;
  faceapi.tf.setWasmPaths(`${paths.wasm}/`);
  if (!(await faceapi.tf.setBackend('wasm'))) throw new Error('the tfjs WASM backend did not start');
  await faceapi.tf.ready();
  const folder = paths.model;
  const manifest = JSON.parse((await readVerified(folder, FACE_MODEL.manifest)).toString('utf8')) as Array<{ weights: WeightEntry[] }>;
  const weights = await readVerified(folder, FACE_MODEL.weights);
  const buffer = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer;
  faceapi.nets.ssdMobilenetv1.loadFromWeightMap(faceapi.tf.io.decodeWeights(buffer, manifest.flatMap((group) => group.weights)));
  return (bytes) => detectFaces(faceapi, bytes);
}

/** How many faces the picture shows (JPEG, PNG or WebP bytes), each scored at least MIN_CONFIDENCE. */
export async function countFaces(bytes: Buffer): Promise<number> {
  detector ??= openFaceDetector(assets()).catch((error: unknown) => {
    detector = undefined;
    throw error;
  });
  return (await detector)(bytes);
}

async function detectFaces(faceapi: FaceApi, bytes: Buffer): Promise<number> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize({ width: DETECTION_SIDE, height: DETECTION_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const input = faceapi.tf.tensor3d(Int32Array.from(data), [info.height, info.width, 3], 'int32');
  try {
    const faces = await faceapi.detectAllFaces(input, new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_CONFIDENCE }));
    return faces.length;
  } finally {
    input.dispose();
  }
}
