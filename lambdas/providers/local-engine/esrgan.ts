// ESRGAN super-resolution, offline: the `upscaler` library with the esrgan-slim models (MIT; the weights ship inside
// the npm package @upscalerjs/esrgan-slim, about 0.9 MB per scale) on TensorFlow.js's WASM backend (no native
// binary, nothing downloaded). The weights are read from the installed package through a tfjs load router, so no
// URL is ever fetched. Loaded on first use only: everything else in the engine runs without TensorFlow.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RgbaImage } from './raster.js';

/** The scales esrgan-slim ships, as the package names its model entry points. */
export const ESRGAN_SCALES = [2, 3, 4] as const;
export type EsrganScale = (typeof ESRGAN_SCALES)[number];

const ROUTER_SCHEME = 'esrgan-slim://x';
/** Patches the model runs on (pixels, with an overlap): bounds the memory of one call, whatever the picture's size. */
const PATCH = { size: 96, padding: 6 };

type Tf = typeof import('@tensorflow/tfjs');
interface Upscaler {
  execute(input: unknown, options: { output: 'tensor'; patchSize: number; padding: number }): Promise<unknown>;
}

interface Runtime {
  tf: Tf;
  upscalers: Map<EsrganScale, Upscaler>;
  create(scale: EsrganScale): Promise<Upscaler>;
}

/** A package's folder, found from its resolvable entry (exports maps hide package.json). */
function packageFolder(name: string): string {
  const require = createRequire(import.meta.url);
  let folder = dirname(require.resolve(name));
  while (!folder.endsWith(join('node_modules', ...name.split('/')))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`cannot find the folder of ${name}`);
    folder = parent;
  }
  return folder;
}

let runtime: Promise<Runtime> | undefined;

async function loadRuntime(): Promise<Runtime> {
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(`${join(packageFolder('@tensorflow/tfjs-backend-wasm'), 'dist')}/`);
  if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs WASM backend did not start');
  await tf.ready();
  const models = join(packageFolder('@upscalerjs/esrgan-slim'), 'models');
  // tfjs asks each router in turn and takes the first handler; null means "not mine" (its types omit it).
  const router = (url: string | string[]) => {
    const path = String(url);
    if (!path.startsWith(ROUTER_SCHEME)) return null;
    const folder = join(models, `x${path.slice(ROUTER_SCHEME.length)}`);
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
    async create(scale) {
      return new Upscaler({ model: { ...definitions[`x${scale}`], path: `${ROUTER_SCHEME}${scale}` } });
    },
  };
}

/** The picture (RGB of `image`, alpha dropped) enlarged `scale` times by ESRGAN. */
export async function esrganUpscale(image: RgbaImage, scale: EsrganScale): Promise<RgbaImage> {
  runtime ??= loadRuntime().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  const { tf, upscalers, create } = await runtime;
  let upscaler = upscalers.get(scale);
  if (!upscaler) {
    upscaler = await create(scale);
    upscalers.set(scale, upscaler);
  }
  const { width, height } = image;
  const rgb = new Int32Array(width * height * 3);
  for (let p = 0, i = 0; p < width * height; p++, i += 4) {
    rgb[p * 3] = image.data[i]!;
    rgb[p * 3 + 1] = image.data[i + 1]!;
    rgb[p * 3 + 2] = image.data[i + 2]!;
  }
  const input = tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    const output = (await upscaler.execute(input, { output: 'tensor', patchSize: PATCH.size, padding: PATCH.padding })) as import('@tensorflow/tfjs').Tensor3D;
    try {
      const [outHeight, outWidth] = output.shape;
      const values = await output.data();
      const data = Buffer.alloc(outWidth * outHeight * 4);
      for (let p = 0; p < outWidth * outHeight; p++) {
        for (let c = 0; c < 3; c++) data[p * 4 + c] = Math.max(0, Math.min(255, Math.round(values[p * 3 + c]!)));
        data[p * 4 + 3] = 255;
      }
      return { data, width: outWidth, height: outHeight };
    } finally {
      output.dispose();
    }
  } finally {
    input.dispose();
  }
}
