// The ffmpeg and ffprobe binaries: Debian's `ffmpeg` package, never an npm download (nothing may fetch a binary at install or run time). FFMPEG_PATH and
// FFPROBE_PATH override the names looked up on PATH (e.g. a Lambda layer's /opt/bin/ffmpeg).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join, parse } from 'node:path';
import type { Readable, Writable } from 'node:stream';

export type MediaTool = 'ffmpeg' | 'ffprobe';

function toolPath(tool: MediaTool, env: NodeJS.ProcessEnv = process.env): string {
  return (tool === 'ffmpeg' ? env.FFMPEG_PATH : env.FFPROBE_PATH) || tool;
}

/** Encoder settings of every MP4 this project writes: H.264 that every browser plays, moov atom first. */
export const H264_MP4_OUTPUT_ARGS = [
  '-c:v', 'libx264',
  '-preset', 'veryfast',
  '-crf', '20',
  '-pix_fmt', 'yuv420p',
  '-movflags', '+faststart',
  '-an',
  '-f', 'mp4',
] as const;

export type ToolProcess = ChildProcessByStdio<Writable, Readable, Readable> & { done: Promise<void> };

/**
 * Starts ffmpeg/ffprobe with piped stdio. `done` settles when the process exits: it rejects with the tool's last
 * stderr lines on a non-zero exit, and with a message naming the Debian package when the binary is missing.
 */
export function startTool(tool: MediaTool, args: readonly string[]): ToolProcess {
  const path = toolPath(tool);
  // Only errors on stderr (they end up in `done`'s message). -nostdin keeps ffmpeg from treating its stdin as a
  // console; an input named '-' is still read from it.
  const quiet = tool === 'ffmpeg' ? ['-hide_banner', '-v', 'error', '-nostdin'] : ['-hide_banner', '-v', 'error'];
  const child = spawn(path, [...quiet, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // A write after the tool exited fails with EPIPE; the exit itself is reported through `done`.
  child.stdin.on('error', () => undefined);
  const stderr: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${tool} not found (tried '${path}'): install the Debian package 'ffmpeg' (apt-get install -y ffmpeg) ` +
                `or set ${tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'}`,
            )
          : error,
      );
    });
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const tail = Buffer.concat(stderr).toString('utf8').trim().split('\n').slice(-6).join('\n');
      reject(new Error(`${tool} exited with ${code ?? signal}: ${tail}`));
    });
  });
  return Object.assign(child, { done });
}

/** Runs a tool to completion and returns its stdout. */
export async function runTool(tool: MediaTool, args: readonly string[]): Promise<Buffer> {
  const child = startTool(tool, args);
  child.stdin.end();
  const stdout: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  await child.done;
  return Buffer.concat(stdout);
}

/** `/dir/clip.mp4` → `/dir/clip.<step>.mp4`: where a processing step writes by default. */
export function outputBeside(input: string, step: string): string {
  const { dir, name } = parse(input);
  return join(dir, `${name}.${step}.mp4`);
}
