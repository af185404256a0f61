// Counting the faces in a picture, offline: the SSD MobileNet v1 face detector of `@vladmandic/face-api` 1.7.15 (MIT;
// its weights ship inside the npm package, under model/), on TensorFlow.js's WASM backend (the runtime the ESRGAN
// upscale already uses; face-api 1.7.15 is built against tfjs 4.22, the version installed). face-api is pinned exactly
// in package.json, and the weights are checked against their SHA-256 before they are loaded, so a changed file is
// refused rather than silently giving other counts. Nothing is downloaded: the weights are decoded from the bytes
// read and checked here (loadFromWeightMap), never fetched by URL.
// face-api loads the weights; the forward pass is face-ssd.ts's (face-api's own, with its batch normalisations folded
// into the convolutions: the same detections, about a fifth faster).
//
// Deployed, a function that checks portraits (routes.ts: `faces`) carries a folder `faces/` beside its index.mjs
// (lib/native-modules.ts, facesAssetSteps): detector.cjs (face-api's node-wasm build bundled with TensorFlow.js),
// wasm/ (tfjs-backend-wasm's binaries) and model/ (the two files above).
//
// A saved model's portrait must show one person (lambdas/domain/models/create.ts): zero or several faces are refused.
// The save hands over the pixels the upload check already decoded (decode.ts, within FACE_DETECTION_SIDE), so the
// picture is read and decoded once. The detector is opened once per process, started as a save begins
// (warmFaceDetector), so its load overlaps the upload's check.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as tfjs from '@tensorflow/tfjs';
import { log } from '../../core/log.js';
import { packageFolder } from '../../providers/local-engine/esrgan-model.js';
import { loadSharp, uprightPixelsWithin, type DecodedPixels } from './decode.js';
import { foldSsd, ssdFaceScores, type FoldedSsd, type SsdParams, type Tfjs } from './face-ssd.js';

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
/**
 * Pictures are scaled down to at most this many pixels on their longest side before detection: the net sees a
 * 512×512 square whatever it is given (face-api pads the picture square and resizes it), so more is decoded for
 * nothing. Measured on the face fixtures and 11 variants of them (flipped, darkened, grey, one face in a third or a
 * quarter of the frame, two to four people in a row, a column or a grid), 512 counted as right as 1024 did, and one
 * case more (three in a row: 3 at 512, 2 at 1024). TinyFaceDetector, 3–4 times faster, missed a face in 4 to 9 of
 * those 16 pictures at input sizes 416–608; as a first pass (SSD only when it saw no clear single face) it still let
 * through a portrait with a second, smaller face behind its subject, which SSD counts. So the SSD net stays
 * (November 2026).
 */
export const FACE_DETECTION_SIDE = 512;

interface FaceApi {
  tf: Tfjs & { setWasmPaths(prefix: string): void };
  nets: { ssdMobilenetv1: { loadFromWeightMap(weights: Record<string, unknown>): void; params: SsdParams } };
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

/** A picture to count faces in: its file's bytes (JPEG, PNG or WebP), or pixels the upload check already decoded. */
export type FacePicture = Buffer | DecodedPixels;

/** Counts the faces in a picture. */
export type FaceCounter = (picture: FacePicture) => Promise<number>;
/** The scores of the faces in a picture, best first (each at least MIN_CONFIDENCE). */
type FaceScorer = (picture: FacePicture) => Promise<number[]>;

let detector: Promise<FaceScorer> | undefined;

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
  const scorer = await openFaceScorer(paths);
  return async (picture) => (await scorer(picture)).length;
}

async function openFaceScorer(paths: FaceAssets): Promise<FaceScorer> {
  const faceapi = createRequire(import.meta.url)(paths.detector) as FaceApi;
  faceapi.tf.setWasmPaths(`${paths.wasm}/`);
  if (!(await faceapi.tf.setBackend('wasm'))) throw new Error('the tfjs WASM backend did not start');
  await faceapi.tf.ready();
  const folder = paths.model;
  const manifest = JSON.parse((await readVerified(folder, FACE_MODEL.manifest)).toString('utf8')) as tfjs.io.WeightsManifestConfig;
  const weights = await readVerified(folder, FACE_MODEL.weights);
  const buffer = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer;
  faceapi.nets.ssdMobilenetv1.loadFromWeightMap(faceapi.tf.io.decodeWeights(buffer, manifest.flatMap((group) => group.weights)));
  const net = foldSsd(faceapi.tf, faceapi.nets.ssdMobilenetv1.params);
  return (picture) => detectFaces(net, picture);
}

/** This process's detector, opened at the first call (a failed open is tried again at the next). */
function openedDetector(): Promise<FaceScorer> {
  return (detector ??= openFaceScorer(assets()).catch((error: unknown) => {
    detector = undefined;
    throw error;
  }));
}

/**
 * Starts opening the detector now (the package check, the weights' SHA-256, the WASM start) unless it is open or
 * opening, so that it loads while other work of the request runs. A failure is logged here and met again by the next
 * countFaces, which tries once more and reports it.
 */
export function warmFaceDetector(): void {
  openedDetector().catch((error: unknown) => log.warn('face detector did not open', { error: String(error) }));
}

/** How many faces the picture shows, each scored at least MIN_CONFIDENCE. */
export async function countFaces(picture: FacePicture): Promise<number> {
  return (await faceScores(picture)).length;
}

/** The scores of the faces the picture shows, best first, each at least MIN_CONFIDENCE. */
export async function faceScores(picture: FacePicture): Promise<number[]> {
  return (await openedDetector())(picture);
}

/** The picture's pixels within FACE_DETECTION_SIDE: decoded here from a file's bytes, or as the upload check left them. */
async function pixelsOf(picture: FacePicture): Promise<DecodedPixels> {
  if (!Buffer.isBuffer(picture)) return picture;
  const sharp = await loadSharp();
  const { data, info } = await uprightPixelsWithin(sharp(picture), FACE_DETECTION_SIDE).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function detectFaces(net: FoldedSsd, picture: FacePicture): Promise<number[]> {
  const { data, width, height } = await pixelsOf(picture);
  const input = net.tf.tensor3d(Int32Array.from(data), [height, width, 3], 'int32');
  try {
    return await ssdFaceScores(net, input, MIN_CONFIDENCE);
  } finally {
    input.dispose();
  }
}
