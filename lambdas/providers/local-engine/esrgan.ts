// ESRGAN enlargement across the machine's cores. The picture is cut into horizontal bands, one per core
// (os.availableParallelism(): 2 on the twin's machine, up to 6 on a Lambda function of 10 GB), each with a margin of
// rows shared with its neighbours so the seams see the same context as the inside; each band runs in its own worker
// thread (esrgan-worker.ts: TensorFlow.js's WASM backend, whose own threads are off in Node), and the bands are put back
// together without their margins. The workers start at first use and stay for the next picture (a warm function).
// Nothing of TensorFlow.js loads in the calling thread.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ESRGAN_ASSET_FOLDER, type EsrganPatch, type EsrganScale, type RgbImage } from './esrgan-model.js';
import type { EsrganJob, EsrganJobResult } from './esrgan-worker.js';
import type { RgbaImage } from './raster.js';

export { ESRGAN_SCALES, type EsrganPatch, type EsrganScale } from './esrgan-model.js';

/**
 * The patch the model runs on at a time (pixels, with an overlap). 128 was the fastest of 64–256 in bench/esrgan.ts
 * --patches (one worker, load 6 on 2 cores: 21.9 µs per source pixel, against 61.6 at 96, the size used before, 51.8
 * at 64, 31.6 at 192 and 41.0 at 256).
 */
export const ESRGAN_PATCH: EsrganPatch = { size: 128, padding: 6 };
/** Source rows each band shares with a neighbour, dropped from the enlarged band. */
const BAND_MARGIN = 8;
/** No band is thinner than this (a small picture uses fewer workers). */
const MIN_BAND_ROWS = 48;

/** How many worker threads (bands) to use: PREVIEW_ESRGAN_WORKERS, else one per core. */
export function esrganWorkerCount(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.PREVIEW_ESRGAN_WORKERS);
  return Number.isInteger(configured) && configured >= 1 ? configured : availableParallelism();
}

/**
 * A new worker thread: the bundled worker beside a deployed function, else (the twin, tests, benches) the TypeScript
 * source through tsx's API (a worker thread does not inherit the parent's module loader).
 */
function startWorker(): Worker {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), ESRGAN_ASSET_FOLDER, 'worker.mjs');
  if (existsSync(bundled)) return new Worker(bundled);
  const source = new URL('./esrgan-worker.ts', import.meta.url).href;
  // require.resolve finds tsx's CommonJS entry of the API; its ES module sits beside it.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}));`, { eval: true });
}

interface Pending {
  resolve(image: RgbImage): void;
  reject(error: Error): void;
}

/** Worker threads that each take one band at a time; a worker that dies is replaced at the next call. */
class WorkerPool {
  private readonly workers: (Worker | undefined)[] = [];
  private readonly pending = new Map<number, Pending & { worker: number }>();
  private nextId = 0;

  private workerAt(index: number): Worker {
    let worker = this.workers[index];
    if (!worker) {
      const started = startWorker();
      started.on('message', (result: EsrganJobResult) => {
        const job = this.pending.get(result.id);
        if (!job) return;
        this.settle(result.id);
        if ('error' in result) job.reject(new Error(`ESRGAN failed: ${result.error}`));
        else job.resolve(result.image);
      });
      const fail = (error: Error) => {
        this.workers[index] = undefined;
        for (const [id, job] of this.pending) {
          if (job.worker !== index) continue;
          this.settle(id);
          job.reject(error);
        }
      };
      started.on('error', fail);
      started.on('exit', (code) => fail(new Error(`the ESRGAN worker stopped (exit ${code})`)));
      started.unref();
      worker = started;
      this.workers[index] = worker;
    }
    return worker;
  }

  /** A job done: an idle worker no longer keeps the process alive. */
  private settle(id: number): void {
    const job = this.pending.get(id);
    this.pending.delete(id);
    if (job && ![...this.pending.values()].some((other) => other.worker === job.worker)) this.workers[job.worker]?.unref();
  }

  run(index: number, job: Omit<EsrganJob, 'id'>): Promise<RgbImage> {
    const worker = this.workerAt(index);
    const id = this.nextId++;
    return new Promise<RgbImage>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: index });
      worker.ref();
      worker.postMessage({ ...job, id } satisfies EsrganJob, [job.image.rgb.buffer]);
    });
  }
}

let pool: WorkerPool | undefined;

export interface EsrganOptions {
  /** Worker threads (bands); default esrganWorkerCount(). */
  workers?: number;
  patch?: EsrganPatch;
}

/** The picture (RGB of `image`, alpha dropped) enlarged `scale` times by ESRGAN. */
export async function esrganUpscale(image: RgbaImage, scale: EsrganScale, options: EsrganOptions = {}): Promise<RgbaImage> {
  const { width, height } = image;
  const patch = options.patch ?? ESRGAN_PATCH;
  const bands = Math.max(1, Math.min(options.workers ?? esrganWorkerCount(), Math.floor(height / MIN_BAND_ROWS)));
  pool ??= new WorkerPool();
  const workers = pool;
  const output = Buffer.alloc(width * scale * height * scale * 4);
  await Promise.all(
    Array.from({ length: bands }, async (_, band) => {
      const top = Math.round((band * height) / bands);
      const bottom = Math.round(((band + 1) * height) / bands);
      const sentTop = Math.max(0, top - BAND_MARGIN);
      const sentBottom = Math.min(height, bottom + BAND_MARGIN);
      const rgb = new Uint8Array(width * (sentBottom - sentTop) * 3);
      for (let p = 0, i = sentTop * width * 4; p < rgb.length; p += 3, i += 4) {
        rgb[p] = image.data[i]!;
        rgb[p + 1] = image.data[i + 1]!;
        rgb[p + 2] = image.data[i + 2]!;
      }
      const enlarged = await workers.run(band, { image: { rgb, width, height: sentBottom - sentTop }, scale, patch });
      const outWidth = width * scale;
      const firstRow = (top - sentTop) * scale;
      for (let row = 0; row < (bottom - top) * scale; row++) {
        let from = (firstRow + row) * enlarged.width * 3;
        let to = ((top * scale + row) * outWidth) * 4;
        for (let x = 0; x < outWidth; x++, from += 3, to += 4) {
          output[to] = enlarged.rgb[from]!;
          output[to + 1] = enlarged.rgb[from + 1]!;
          output[to + 2] = enlarged.rgb[from + 2]!;
          output[to + 3] = 255;
        }
      }
    }),
  );
  return { data: output, width: width * scale, height: height * scale };
}
