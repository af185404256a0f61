// ESRGAN super-resolution: the esrgan-slim network (MIT; its weights ship inside the npm package
// @upscalerjs/esrgan-slim, about 0.9 MB per scale, pinned in package.json and checked against their SHA-256 here), run
// natively by onnxruntime-node (onnx-runtime.ts). The package ships the network for TensorFlow.js; keras-onnx.ts writes
// the same graph and weights as an ONNX model in memory when the network is first used, so nothing converted is shipped
// and nothing is downloaded. CPU per source pixel (bench/esrgan.ts, November 2026): 25–43 µs on TensorFlow.js's WASM
// backend (used before), 5–7 µs here, with the same pixels (at most 1 level apart) and the same gain over Lanczos.
//
// The picture is enlarged in tiles, one after the other, each with a margin as wide as the network's reach (so a tile's
// seams see exactly what the whole picture would: the result is the picture enlarged whole), and onnxruntime spreads
// each tile over all cores but one (intra-op threads, esrganThreadCount). onnxruntime-node runs a tile in the calling thread (about
// 0.2 s of CPU at 192 px) and lets the event loop turn between tiles. The runtime and the network stay loaded for the
// next picture.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { kerasToOnnx, readKerasWeights, type KerasTopology, type KerasWeightSpec } from './keras-onnx.js';
import { deployedAssetFolder, loadOnnxRuntime, type Ort, type OrtSession } from './onnx-runtime.js';

/** The scales esrgan-slim ships, as the package names its model folders. */
export const ESRGAN_SCALES = [2, 3, 4] as const;
export type EsrganScale = (typeof ESRGAN_SCALES)[number];

/** Interleaved RGB bytes, row by row. */
export interface RgbImage {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/**
 * The folder a deployed upscale function carries beside its index.mjs (lib/native-modules.ts writes it): `models/x2/`
 * with the weights and `node_modules/` with onnxruntime-node.
 */
export const ESRGAN_ASSET_FOLDER = 'esrgan';

/** SHA-256 of each scale's files in @upscalerjs/esrgan-slim 1.0.0: other weights are refused, never run. */
export const ESRGAN_WEIGHTS: Readonly<Record<EsrganScale, { modelJson: string; weights: string }>> = {
  2: { modelJson: '8efb488c2caed0196a6163e3f06798f9245e92623ffd50654a26c372e09150ea', weights: '5cb464ae4d390ce0a771afd5feaf60fbfcdb18ab48a56db98cdf6b88202369de' },
  3: { modelJson: '642208758cf6c42a4f88745894b45cc03776681a46027b85963f01fe003e9917', weights: '9d344609abd1e29bd3924f9c4e9ffaa1aee6be7c3586bab0f52863597858a2ba' },
  4: { modelJson: '3a2eaa642232567e7d2a2e7638c9704f42f63f355fc656c18aa78bf2da1d903d', weights: '82637daaf3ba024df5e9da2389e8992e7a6e8a992ba6268ce6bc490c92e9516e' },
};

/**
 * Source pixels the network sees around any pixel: seven 3×3 convolutions and one 5×5 before the enlargement, one 3×3
 * after it. A tile's margin of this many pixels makes its inside exactly the whole picture's.
 */
export const ESRGAN_REACH = 10;

/** Tiles of the picture run at a time (source pixels, before the margin). */
export interface EsrganTiling {
  /** The side of a tile. */
  tile: number;
  /** onnxruntime's intra-op threads. */
  threads: number;
}

/**
 * 192 px tiles: bounds one run's memory (the widest layer holds 64 float channels: about 15 MB at 212×212 with the
 * margin) while the margin adds only a fifth to the work.
 */
export const ESRGAN_TILE = 192;

/**
 * onnxruntime's threads: PREVIEW_ESRGAN_THREADS, else every core but one (at least one). Its threads meet after every
 * layer and spin while they wait, so a thread on a core something else needs costs more than it gives: on the 2-core
 * machine here (bench/esrgan.ts, November 2026, load 4) a 1K picture ×2 took 5.8–6.9 s on 1 thread and 8.6–9.7 s on 2.
 */
export function esrganThreadCount(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.PREVIEW_ESRGAN_THREADS);
  return Number.isInteger(configured) && configured >= 1 ? configured : Math.max(1, availableParallelism() - 1);
}

/** A package's folder, found from its resolvable entry (exports maps hide package.json). */
export function packageFolder(name: string): string {
  let folder = dirname(createRequire(import.meta.url).resolve(name));
  while (!folder.endsWith(join('node_modules', ...name.split('/')))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`cannot find the folder of ${name}`);
    folder = parent;
  }
  return folder;
}

/** The weights' folder: beside the bundle when deployed, else in the installed package. */
function modelsFolder(deployed: string | undefined): string {
  return deployed ? join(deployed, 'models') : join(packageFolder('@upscalerjs/esrgan-slim'), 'models');
}

async function readVerified(path: string, sha256: string): Promise<Buffer> {
  const bytes = await readFile(path);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== sha256) throw new Error(`ESRGAN weights at ${path} have SHA-256 ${digest}, expected ${sha256}: refusing to load them.`);
  return bytes;
}

interface Network {
  ort: Ort;
  session: OrtSession;
}

const networks = new Map<string, Promise<Network>>();

async function loadNetwork(scale: EsrganScale, threads: number): Promise<Network> {
  const deployed = deployedAssetFolder(ESRGAN_ASSET_FOLDER, 'models');
  const folder = join(modelsFolder(deployed), `x${scale}`);
  const manifest = JSON.parse((await readVerified(join(folder, 'model.json'), ESRGAN_WEIGHTS[scale].modelJson)).toString('utf8')) as {
    modelTopology: KerasTopology;
    weightsManifest: { paths: string[]; weights: KerasWeightSpec[] }[];
  };
  const [group, ...others] = manifest.weightsManifest;
  if (!group || others.length || group.paths.length !== 1) throw new Error('esrgan-slim: expected one weight file');
  const weights = readKerasWeights(group.weights, await readVerified(join(folder, group.paths[0]!), ESRGAN_WEIGHTS[scale].weights));
  const ort = loadOnnxRuntime(deployed);
  const session = await ort.InferenceSession.create(kerasToOnnx(manifest.modelTopology, weights), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  return { ort, session };
}

/** The network for `scale` on `threads` threads, loaded once (a failed load is tried again at the next call). */
function network(scale: EsrganScale, threads: number): Promise<Network> {
  const key = `${scale}/${threads}`;
  let loaded = networks.get(key);
  if (!loaded) {
    loaded = loadNetwork(scale, threads).catch((error: unknown) => {
      networks.delete(key);
      throw error;
    });
    networks.set(key, loaded);
  }
  return loaded;
}

/** The picture enlarged `scale` times by ESRGAN. */
export async function runEsrgan(image: RgbImage, scale: EsrganScale, tiling: EsrganTiling): Promise<RgbImage> {
  const { ort, session } = await network(scale, tiling.threads);
  const { width, height } = image;
  const outWidth = width * scale;
  const output: RgbImage = { rgb: new Uint8Array(outWidth * height * scale * 3), width: outWidth, height: height * scale };
  for (let top = 0; top < height; top += tiling.tile) {
    for (let left = 0; left < width; left += tiling.tile) {
      // The tile and its margin, inside the picture (at the picture's edge the network pads as it would for the whole).
      const inner = { left, top, right: Math.min(width, left + tiling.tile), bottom: Math.min(height, top + tiling.tile) };
      const outer = {
        left: Math.max(0, left - ESRGAN_REACH),
        top: Math.max(0, top - ESRGAN_REACH),
        right: Math.min(width, inner.right + ESRGAN_REACH),
        bottom: Math.min(height, inner.bottom + ESRGAN_REACH),
      };
      const tileWidth = outer.right - outer.left;
      const tileHeight = outer.bottom - outer.top;
      const plane = tileWidth * tileHeight;
      // NCHW float32 in 0–255, as the network was trained.
      const input = new Float32Array(3 * plane);
      for (let y = 0; y < tileHeight; y++) {
        let from = ((outer.top + y) * width + outer.left) * 3;
        for (let x = 0, p = y * tileWidth; x < tileWidth; x++, p++, from += 3) {
          input[p] = image.rgb[from]!;
          input[plane + p] = image.rgb[from + 1]!;
          input[2 * plane + p] = image.rgb[from + 2]!;
        }
      }
      const results = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, tileHeight, tileWidth]) });
      const enlarged = results[session.outputNames[0]!]!.data;
      const enlargedWidth = tileWidth * scale;
      const enlargedPlane = enlargedWidth * tileHeight * scale;
      for (let y = inner.top * scale; y < inner.bottom * scale; y++) {
        const row = (y - outer.top * scale) * enlargedWidth - outer.left * scale;
        for (let x = inner.left * scale, to = (y * outWidth + x) * 3; x < inner.right * scale; x++, to += 3) {
          for (let c = 0; c < 3; c++) output.rgb[to + c] = Math.max(0, Math.min(255, Math.round(enlarged[c * enlargedPlane + row + x]!)));
        }
      }
    }
  }
  return output;
}
