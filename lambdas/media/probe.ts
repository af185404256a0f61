// What a video file really is, measured by ffprobe (never what a provider claims).
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
  const json = await runTool('ffprobe', [
    '-select_streams', 'v:0',
    '-count_packets',
    '-show_entries', 'stream=codec_name,pix_fmt,width,height,r_frame_rate,avg_frame_rate,nb_read_packets:format=duration',
    '-of', 'json',
    file,
  ]);
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
  };
}
