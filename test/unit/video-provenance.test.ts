// AI provenance in videos (issue #42 item 5): a delivered MP4 carries IPTC DigitalSourceType in an XMP uuid box
// appended after its last box, which ffprobe still reads as the same video, and which is written once however often
// it is applied; a provider's video is trained algorithmic media, the preview engine's a synthetic composite.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDigitalSourceType, withDigitalSourceType } from '../../lambdas/domain/images/provenance.js';
import { mp4WithXmp, xmpPacket } from '../../lambdas/domain/images/xmp.js';
import { videoSourceType } from '../../lambdas/domain/video/finalize.js';
import { probeVideo } from '../../lambdas/media/index.js';
import { staticClip } from '../fixtures/media-clips.js';

let directory: string;
let clip: Buffer;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'modelloop-video-xmp-'));
  clip = await readFile(await staticClip(directory, 1));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('video provenance', () => {
  it('writes DigitalSourceType into an MP4 that ffprobe reads as the same video, once however often it is applied', async () => {
    expect(await readDigitalSourceType(clip)).toBeNull();
    const marked = await withDigitalSourceType(clip, 'video/mp4', 'trainedAlgorithmicMedia', 'ModelLoop test');
    expect(marked.subarray(0, clip.length).equals(clip)).toBe(true);
    expect(await readDigitalSourceType(marked)).toBe('trainedAlgorithmicMedia');
    const file = join(directory, 'marked.mp4');
    await writeFile(file, marked);
    expect(await probeVideo(file)).toEqual(await probeVideo(join(directory, 'static-1s.mp4')));

    // Applied again, the earlier box is replaced, not added to.
    expect(mp4WithXmp(marked, xmpPacket('trainedAlgorithmicMedia', 'ModelLoop test')).equals(marked)).toBe(true);
    const changed = mp4WithXmp(marked, xmpPacket('compositeSynthetic', 'ModelLoop test'));
    expect(changed.subarray(0, clip.length).equals(clip)).toBe(true);
    expect(await readDigitalSourceType(changed)).toBe('compositeSynthetic');
  });

  it('names a provider video trained algorithmic media and the preview engine’s a synthetic composite', () => {
    expect(videoSourceType('veo-3.1-fast-generate-preview')).toBe('trainedAlgorithmicMedia');
    expect(videoSourceType('preview-engine')).toBe('compositeSynthetic');
  });
});
