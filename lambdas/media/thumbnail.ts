// The poster frame of a video: its first frame, which for a loop is also where it returns to.
import { runTool } from './tools.js';

export interface Poster {
  bytes: Buffer;
  mimeType: 'image/jpeg';
}

export async function thumbnail(input: string): Promise<Poster> {
  const bytes = await runTool('ffmpeg', [
    '-i', input,
    '-map', '0:v:0',
    '-frames:v', '1',
    '-vf', 'format=yuvj420p',
    '-c:v', 'mjpeg',
    '-q:v', '3',
    '-f', 'image2pipe',
    '-',
  ]);
  if (bytes.length === 0) throw new Error(`${input} has no frame to make a poster from`);
  return { bytes, mimeType: 'image/jpeg' };
}
