// How Gemini Omni makes each video length, inside its 3–10 s clips (models.ts: OMNI_CLIP_SECONDS), with the loop closed
// in the model: every clip has the product photo as its first AND its last frame keyframe (Google's "Keyframe
// interpolation": "Generate continuous video that smoothly transitions between a starting frame and an ending frame.
// This is ideal for ... seamless looping clips", the Get_started_Omni notebook, read 2026-11-27).
//   5 s   one 5 s clip.
//   8 s   one 8 s clip.
//   16 s  two 8 s clips, each from the product photo to the product photo, so both joins land on the same picture.
// Extension is not used for 16 s: it "is strictly limited to appending to the end of a video" with no keyframe to end
// on (the same notebook, "Video extension constraints"), so an extended clip cannot close the loop in the model.
// The clips are asked for at exactly these lengths (response_format.duration), so finalize retimes only what the
// model delivers off by a frame or two. Pure: the price list and the registry read it without the SDK.
import { VIDEO_DURATIONS } from '../../contracts/catalog.js';
import { ProviderError, type VideoClip } from '../ports.js';
import { OMNI_CLIP_SECONDS } from './models.js';

export const UNSUPPORTED_DURATION_MESSAGE = `Videos can be ${VIDEO_DURATIONS.join(', ')} seconds long.`;

export function planOmniClips(durationSeconds: number): VideoClip[] {
  if (!(VIDEO_DURATIONS as readonly number[]).includes(durationSeconds)) throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
  const clips = Math.ceil(durationSeconds / OMNI_CLIP_SECONDS.max);
  const seconds = durationSeconds / clips;
  return Array.from({ length: clips }, () => ({ seconds, keyframe: 'source' as const, endKeyframe: 'source' as const }));
}
