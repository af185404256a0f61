// One ESRGAN worker thread (esrgan.ts starts them): it loads TensorFlow.js and the weights once, then enlarges each
// band of a picture it is sent. Deployed, this module and TensorFlow.js are bundled as esrgan/worker.mjs beside the
// upscale function's index.mjs (lib/native-modules.ts).
import { parentPort } from 'node:worker_threads';
import { runEsrgan, type EsrganPatch, type EsrganScale, type RgbImage } from './esrgan-model.js';

export interface EsrganJob {
  id: number;
  image: RgbImage;
  scale: EsrganScale;
  patch: EsrganPatch;
}

export type EsrganJobResult = { id: number; image: RgbImage } | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on('message', (job: EsrganJob) => {
    runEsrgan(job.image, job.scale, job.patch).then(
      (image) => port.postMessage({ id: job.id, image } satisfies EsrganJobResult, [image.rgb.buffer]),
      (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies EsrganJobResult),
    );
  });
}
