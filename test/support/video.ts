// Video jobs over the HTTP API as the web app drives them, and checks of the delivered file with ffprobe.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeVideo, type VideoProbe } from '../../lambdas/media/index.js';
import { api, type ApiAnswer } from './api.js';
import type { TestUser } from './users.js';

export interface VideoOrder {
  prompt?: string;
  duration?: number;
  aspect_ratio?: string;
  output_count?: number;
}

export function generateVideo(apiUrl: string, user: TestUser, image: Buffer, order: VideoOrder = {}, key = randomUUID()): Promise<ApiAnswer> {
  return api(apiUrl, 'POST', '/generate-video', {
    user,
    body: { imageBase64: image.toString('base64'), prompt: 'Pivot', ...order },
    headers: { 'idempotency-key': key },
  });
}

/** Polls like the web app (faster) until the job is done; returns the last answer. */
export async function pollUntilDone(
  apiUrl: string,
  user: TestUser,
  job: { jobId: string; operationName: string },
  timeoutMs = 150_000,
): Promise<{ done: boolean; status: string; error?: { message: string } }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api(apiUrl, 'POST', '/poll-operation', { user, body: job });
    if (status !== 200) throw new Error(`poll-operation answered ${status}: ${JSON.stringify(body)}`);
    if (body.done) return body;
    if (Date.now() > deadline) throw new Error(`job ${job.jobId} not done after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

/** Downloads a (signed) URL into a temporary file, probes it and removes it. */
export async function probeUrl(url: string): Promise<VideoProbe & { bytes: Buffer }> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const directory = await mkdtemp(join(tmpdir(), 'modelloop-video-test-'));
  try {
    const file = join(directory, 'video.mp4');
    await writeFile(file, bytes);
    return { ...(await probeVideo(file)), bytes };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** True when the MP4's moov box comes before its mdat box (faststart: playable while it downloads). */
export function isFaststart(mp4: Buffer): boolean {
  let offset = 0;
  while (offset + 8 <= mp4.length) {
    const size = mp4.readUInt32BE(offset);
    const type = mp4.toString('latin1', offset + 4, offset + 8);
    if (type === 'moov') return true;
    if (type === 'mdat') return false;
    const boxSize = size === 1 ? Number(mp4.readBigUInt64BE(offset + 8)) : size;
    if (boxSize < 8) return false;
    offset += boxSize;
  }
  return false;
}
