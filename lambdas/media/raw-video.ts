// Raw frames in and out of ffmpeg through pipes, so pixel work can be done in JS one frame at a time.
import { once } from 'node:events';
import { H264_MP4_OUTPUT_ARGS, startTool } from './tools.js';

export type RawPixelFormat = 'gray' | 'rgb24' | 'yuv420p';

export interface RawFrameFormat {
  width: number;
  height: number;
  pixelFormat: RawPixelFormat;
}

function frameByteLength({ width, height, pixelFormat }: RawFrameFormat): number {
  if (pixelFormat === 'gray') return width * height;
  if (pixelFormat === 'rgb24') return width * height * 3;
  return width * height + 2 * (Math.ceil(width / 2) * Math.ceil(height / 2));
}

/**
 * Decodes every frame of a video's first video stream, scaled (area averaging) to the given size when it differs.
 * Frames are yielded in order and each buffer is the caller's to keep.
 */
export async function* readFrames(file: string, format: RawFrameFormat): AsyncGenerator<Buffer> {
  const { width, height, pixelFormat } = format;
  const child = startTool('ffmpeg', [
    '-i', file,
    '-map', '0:v:0',
    '-vf', `scale=${width}:${height}:flags=area`,
    // Every decoded frame exactly once. -vsync, not its successor -fps_mode (5.1+): the cloud's static ffmpeg (the
    // media layer, lib/constructs/media-layer.ts) is a 4.1 build that knows only -vsync; Debian's 5.1 takes both.
    '-vsync', 'passthrough',
    '-f', 'rawvideo',
    '-pix_fmt', pixelFormat,
    '-',
  ]);
  child.stdin.end();
  const size = frameByteLength(format);
  let frame = Buffer.allocUnsafe(size);
  let filled = 0;
  let finished = false;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let offset = 0;
      while (offset < chunk.length) {
        const copied = chunk.copy(frame, filled, offset, Math.min(chunk.length, offset + size - filled));
        offset += copied;
        filled += copied;
        if (filled === size) {
          yield frame;
          frame = Buffer.allocUnsafe(size);
          filled = 0;
        }
      }
    }
    await child.done;
    finished = true;
    if (filled !== 0) throw new Error(`ffmpeg returned a partial frame (${filled} of ${size} bytes) for ${file}`);
  } finally {
    if (!finished) {
      child.kill('SIGKILL');
      await child.done.catch(() => undefined);
    }
  }
}

export interface H264Encoder {
  /** Queues one frame; resolves when ffmpeg is ready for more. */
  write(frame: Buffer): Promise<void>;
  /** Closes the input and waits until the MP4 is complete. */
  finish(): Promise<void>;
  /** Stops the encoder after a failure elsewhere. */
  abort(): Promise<void>;
}

/** Encodes raw frames at a constant frame rate into an H.264 MP4 (yuv420p, faststart). */
export function openH264Encoder(output: string, format: RawFrameFormat & { fps: number }): H264Encoder {
  const { width, height, pixelFormat, fps } = format;
  const child = startTool('ffmpeg', [
    '-y',
    '-f', 'rawvideo',
    '-pix_fmt', pixelFormat,
    '-s', `${width}x${height}`,
    '-framerate', String(fps),
    '-i', '-',
    ...H264_MP4_OUTPUT_ARGS,
    output,
  ]);
  child.stdout.resume();
  const expected = frameByteLength(format);
  return {
    async write(frame) {
      if (frame.length !== expected) throw new Error(`frame has ${frame.length} bytes, expected ${expected}`);
      if (child.stdin.write(frame)) return;
      await Promise.race([once(child.stdin, 'drain'), child.done]).catch(async (error: unknown) => {
        await child.done; // ffmpeg's own message says more than the broken pipe
        throw error;
      });
    },
    async finish() {
      child.stdin.end();
      await child.done;
    },
    async abort() {
      child.kill('SIGKILL');
      await child.done.catch(() => undefined);
    },
  };
}
