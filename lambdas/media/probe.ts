// What a video file really is, measured by ffprobe (never what a provider claims), and whether its index comes first.
import { open } from 'node:fs/promises';
import { runTool } from './tools.js';

export interface VideoProbe {
  durationSeconds: number;
  width: number;
  height: number;
  /** e.g. 'h264' */
  codec: string;
  pixelFormat: string;
  /** Counted packets of the video stream (one per frame). */
  frames: number;
  fps: number;
  /** The MP4's index (moov) precedes its media (mdat), so a browser can play it while it downloads. */
  faststart: boolean;
}

interface FfprobeOutput {
  streams?: Array<{
    codec_name?: string;
    pix_fmt?: string;
    width?: number;
    height?: number;
    r_frame_rate?: string;
    avg_frame_rate?: string;
    nb_read_packets?: string;
  }>;
  format?: { duration?: string };
}

function parseRate(rate: string | undefined): number {
  const [numerator, denominator = '1'] = (rate ?? '').split('/');
  const value = Number(numerator) / Number(denominator);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

export async function probeVideo(file: string): Promise<VideoProbe> {
  const [json, faststart] = await Promise.all([ffprobe(file), indexComesFirst(file)]);
  const parsed = JSON.parse(json.toString('utf8')) as FfprobeOutput;
  const stream = parsed.streams?.[0];
  if (!stream?.width || !stream.height) throw new Error(`${file} has no video stream`);
  return {
    durationSeconds: Number(parsed.format?.duration ?? NaN),
    width: stream.width,
    height: stream.height,
    codec: stream.codec_name ?? 'unknown',
    pixelFormat: stream.pix_fmt ?? 'unknown',
    frames: Number(stream.nb_read_packets ?? 0),
    fps: parseRate(stream.avg_frame_rate) || parseRate(stream.r_frame_rate),
    faststart,
  };
}

function ffprobe(file: string): Promise<Buffer> {
  return runTool('ffprobe', [
    '-select_streams', 'v:0',
    '-count_packets',
    '-show_entries', 'stream=codec_name,pix_fmt,width,height,r_frame_rate,avg_frame_rate,nb_read_packets:format=duration',
    '-of', 'json',
    file,
  ]);
}

/**
 * Walks the file's top-level boxes (ISO BMFF: 32-bit size and type, a 64-bit size when the first is 1, 0 meaning "to
 * the end") until it meets moov or mdat. Not an MP4 (no box found) counts as not faststart.
 */
async function indexComesFirst(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    while (offset + 8 <= fileSize) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) return false;
      const type = header.toString('latin1', 4, 8);
      if (type === 'moov') return true;
      if (type === 'mdat') return false;
      const size32 = header.readUInt32BE(0);
      const size = size32 === 1 ? (bytesRead === 16 ? Number(header.readBigUInt64BE(8)) : 0) : size32 === 0 ? fileSize - offset : size32;
      if (size < 8) return false;
      offset += size;
    }
    return false;
  } finally {
    await handle.close();
  }
}
