// The ffmpeg the video pipeline runs (Debian's package, FFMPEG_PATH/FFPROBE_PATH to override) has every filter,
// codec, format and option the finalize and chain steps use: a binary without one fails here, not in a job.
import { describe, expect, it } from 'vitest';
import { failureMessage, VIDEO_ERROR } from '../../lambdas/domain/video/workflow-errors.js';
import { VIDEO_FAILURE_MESSAGES } from '../../lambdas/contracts/video.js';
import { isExactly } from '../../lambdas/domain/video/finalize.js';
import { runTool } from '../../lambdas/media/tools.js';

const list = async (what: string) => (await runTool('ffmpeg', ['-hide_banner', what])).toString('utf8');
const names = (listing: string) => new Set(listing.split('\n').map((line) => line.trim().split(/\s+/)[1]).filter(Boolean));

describe('the shipped ffmpeg', () => {
  it('has the filters, encoders, muxers and demuxers the pipeline uses', async () => {
    const filters = names(await list('-filters'));
    for (const filter of ['fps', 'scale', 'crop', 'setsar', 'format']) expect(filters, filter).toContain(filter);
    const encoders = names(await list('-encoders'));
    for (const encoder of ['libx264', 'mjpeg', 'png', 'rawvideo']) expect(encoders, encoder).toContain(encoder);
    const formats = await list('-formats');
    for (const format of ['mp4', 'image2', 'image2pipe', 'rawvideo', 'concat', 'mov,mp4,m4a,3gp,3g2,mj2']) {
      expect(formats, format).toMatch(new RegExp(`\\s${format}\\s`));
    }
  });

  it('knows the options the pipeline passes (-vsync, -sseof, -stream_loop, -movflags +faststart)', async () => {
    const help = (await runTool('ffmpeg', ['-hide_banner', '-h', 'full'])).toString('utf8');
    for (const option of ['-vsync', '-sseof', '-stream_loop', '-update']) expect(help, option).toContain(option);
    expect(help).toMatch(/faststart/);
  });
});

describe('video workflow errors', () => {
  it('map each failure kind to the catalogue message and everything else to the internal one', () => {
    expect(failureMessage(VIDEO_ERROR.contentPolicy)).toBe(VIDEO_FAILURE_MESSAGES.contentPolicy);
    expect(failureMessage(VIDEO_ERROR.contentPolicy)).toContain('Content Policy Violation');
    expect(failureMessage(VIDEO_ERROR.timedOut)).toBe(VIDEO_FAILURE_MESSAGES.timedOut);
    expect(failureMessage('States.Timeout')).toBe(VIDEO_FAILURE_MESSAGES.timedOut);
    expect(failureMessage('TypeError')).toBe(VIDEO_FAILURE_MESSAGES.internal);
    expect(failureMessage(undefined)).toBe(VIDEO_FAILURE_MESSAGES.internal);
  });

  it('takes a clip as delivered only when frames, rate, size, codec, pixel format and faststart are exact', () => {
    const target = { durationSeconds: 8, size: { width: 720, height: 1280 } };
    const exact = { durationSeconds: 8, width: 720, height: 1280, codec: 'h264', pixelFormat: 'yuv420p', frames: 192, fps: 24, faststart: true };
    expect(isExactly(exact, target)).toBe(true);
    expect(isExactly({ ...exact, frames: 216 }, target)).toBe(false);
    expect(isExactly({ ...exact, fps: 30 }, target)).toBe(false);
    expect(isExactly({ ...exact, width: 1280, height: 720 }, target)).toBe(false);
    expect(isExactly({ ...exact, pixelFormat: 'yuv444p' }, target)).toBe(false);
    expect(isExactly({ ...exact, faststart: false }, target)).toBe(false);
  });
});
