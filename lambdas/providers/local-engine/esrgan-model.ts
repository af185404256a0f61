// ESRGAN super-resolution in one thread: the `upscaler` library with the esrgan-slim models (MIT; the weights ship
// inside the npm package @upscalerjs/esrgan-slim, about 0.9 MB per scale) on TensorFlow.js's WASM backend with SIMD
// (no native binary, nothing downloaded). tfjs-backend-wasm's own threads are off in Node (its feature check answers
// false there), so esrgan.ts runs this module in worker threads instead, one band of the picture each
// (esrgan-worker.ts). The weights are read from files through a tfjs load router, so no URL is ever fetched.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scales esrgan-slim ships, as the package names its model entry points. */
export const ESRGAN_SCALES = [2, 3, 4] as const;
export type EsrganScale = (typeof ESRGAN_SCALES)[number];

/** Patches the model runs on (pixels, with an overlap): bounds the memory of one call, whatever the picture's size. */
export interface EsrganPatch {
  size: number;
  padding: number;
}

/** Interleaved RGB bytes, row by row. */
export interface RgbImage {
  rgb: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
}

/**
 * The folder a deployed upscale function carries beside its index.mjs (lib/native-modules.ts writes it): `worker.mjs`
 * (this module and TensorFlow.js, bundled), `wasm/` with tfjs-backend-wasm's binaries and `models/` with the weights.
 */
export const ESRGAN_ASSET_FOLDER = 'esrgan';

const ROUTER_SCHEME = 'esrgan-slim://x';

type Tf = typeof import('@tensorflow/tfjs');
interface Upscaler {
  execute(input: unknown, options: { output: 'tensor'; patchSize: number; padding: number }): Promise<unknown>;
}

interface Runtime {
  tf: Tf;
  upscalers: Map<EsrganScale, Upscaler>;
  create(scale: EsrganScale): Upscaler;
}

/** A package's folder, found from its resolvable entry (exports maps hide package.json). */
export function packageFolder(name: string): string {
  const require = createRequire(import.meta.url);
  let folder = dirname(require.resolve(name));
  while (!folder.endsWith(join('node_modules', ...name.split('/')))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`cannot find the folder of ${name}`);
    folder = parent;
  }
  return folder;
}

/** Where the WASM binaries and the weights are: beside the bundle when deployed, else in the installed packages. */
function assetFolders(): { wasm: string; models: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  // Bundled, this module is esrgan/worker.mjs itself; a bundle that inlined it has the folder beside it.
  for (const folder of [here, join(here, ESRGAN_ASSET_FOLDER)]) {
    if (existsSync(join(folder, 'models'))) return { wasm: join(folder, 'wasm'), models: join(folder, 'models') };
  }
  return { wasm: join(packageFolder('@tensorflow/tfjs-backend-wasm'), 'dist'), models: join(packageFolder('@upscalerjs/esrgan-slim'), 'models') };
}

let runtime: Promise<Runtime> | undefined;

async function loadRuntime(): Promise<Runtime> {
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const folders = assetFolders();
  wasm.setWasmPaths(`${folders.wasm}/`);
  if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs WASM backend did not start');
  await tf.ready();
  // tfjs asks each router in turn and takes the first handler; null means "not mine" (its types omit it).
  const router = (url: string | string[]) => {
    const path = String(url);
    if (!path.startsWith(ROUTER_SCHEME)) return null;
    const folder = join(folders.models, `x${path.slice(ROUTER_SCHEME.length)}`);
    return {
      async load() {
        const manifest = JSON.parse(await readFile(join(folder, 'model.json'), 'utf8')) as {
          modelTopology: object;
          weightsManifest: Array<{ paths: string[]; weights: import('@tensorflow/tfjs').io.WeightsManifestEntry[] }>;
        };
        const shards = await Promise.all(manifest.weightsManifest.flatMap((group) => group.paths).map((file) => readFile(join(folder, file))));
        const weights = Buffer.concat(shards);
        return {
          modelTopology: manifest.modelTopology,
          weightSpecs: manifest.weightsManifest.flatMap((group) => group.weights),
          weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
        };
      },
    };
  };
  tf.io.registerLoadRouter(router as unknown as Parameters<typeof tf.io.registerLoadRouter>[0]);
  const { default: Upscaler } = (await import('upscaler')) as unknown as { default: new (options: { model: object }) => Upscaler };
  const definitions = (await import('@upscalerjs/esrgan-slim')) as unknown as Record<`x${EsrganScale}`, object>;
  return {
    tf,
    upscalers: new Map(),
    create: (scale) => new Upscaler({ model: { ...definitions[`x${scale}`], path: `${ROUTER_SCHEME}${scale}` } }),
  };
}

/** The picture enlarged `scale` times by ESRGAN, in this thread. */
export async function runEsrgan(image: RgbImage, scale: EsrganScale, patch: EsrganPatch): Promise<RgbImage> {
  runtime ??= loadRuntime().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  const { tf, upscalers, create } = await runtime;
  let upscaler = upscalers.get(scale);
  if (!upscaler) {
    upscaler = create(scale);
    upscalers.set(scale, upscaler);
  }
  const input = tf.tensor3d(Int32Array.from(image.rgb), [image.height, image.width, 3], 'int32');
  try {
    const output = (await upscaler.execute(input, { output: 'tensor', patchSize: patch.size, padding: patch.padding })) as import('@tensorflow/tfjs').Tensor3D;
    try {
      const [height, width] = output.shape;
      const values = await output.data();
      const rgb = new Uint8Array(width * height * 3);
      for (let i = 0; i < rgb.length; i++) rgb[i] = Math.max(0, Math.min(255, Math.round(values[i]!)));
      return { rgb, width, height };
    } finally {
      output.dispose();
    }
  } finally {
    input.dispose();
  }
}
