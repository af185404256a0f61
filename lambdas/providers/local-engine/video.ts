// The local video adapter: renders the clip at once (a few seconds) and writes it where the workflow expects the
// provider's raw clip; the operation is complete by the time `start` returns.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { VideoPort, VideoStartRequest, VideoStatus } from '../ports.js';
import { checkLocalClip, localClipOperation } from './clip-operations.js';
import { presetForPrompt } from './motion.js';
import { LOCAL_ENGINE_MODEL } from './raster.js';
import { renderLoopingClip } from './video-render.js';

export class LocalVideoEngine implements VideoPort {
  #s3: S3Client | undefined;

  /** `createS3Client` is called once, on the first clip (the caller decides endpoints and credentials). */
  constructor(private readonly createS3Client: () => S3Client) {}

  async start(request: VideoStartRequest): Promise<{ operationName: string; model: string }> {
    const directory = await mkdtemp(join(tmpdir(), 'modelloop-clip-'));
    try {
      const file = join(directory, 'clip.mp4');
      await renderLoopingClip(
        {
          image: request.image.bytes,
          preset: presetForPrompt(request.prompt),
          durationSeconds: request.durationSeconds,
          size: request.size,
          variant: request.variant,
        },
        file,
      );
      this.#s3 ??= this.createS3Client();
      await this.#s3.send(
        new PutObjectCommand({
          Bucket: request.output.bucket,
          Key: request.output.key,
          Body: await readFile(file),
          ContentType: 'video/mp4',
        }),
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    return { operationName: localClipOperation(request.output), model: LOCAL_ENGINE_MODEL };
  }

  async check(operationName: string): Promise<VideoStatus> {
    return checkLocalClip(operationName);
  }
}
