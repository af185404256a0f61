// VideoPort on FASHN image-to-video. Source: "Image to Video - FASHN", https://docs.fashn.ai/api-reference/image-to-video,
// and the official SDK's types (fashn-AI/fashn-typescript-sdk, src/resources/predictions.ts, ImageToVideoRequest.Inputs):
//   POST /v1/run { "model_name": "image-to-video",
//                  "inputs": { "image": URL | "data:image/...;base64,...", "prompt"?: short motion guidance,
//                              "negative_prompt"?, "duration"?: 5 | 10 (default 5),
//                              "resolution"?: "480p" | "720p" | "1080p" (default 1080p) } }  → { "id", "error" }
//   then GET /v1/status/{id} until "completed" with output[0] an MP4 URL (checking: fashn-video-status.ts).
// Credits per clip: 480p 1, 720p 3, 1080p 6; 10 s doubles them. The docs advise little or no prompt ("motion is
// difficult to control precisely"), so a preset becomes a few concrete words and a custom prompt is kept short.
//
// Clips: 5 s → one 5 s clip; 8 s → one 10 s clip (finalize trims it); 16 s → two 10 s clips, the second starting from
// the first one's last frame (finalize joins them and trims to 16 s). The model takes no end frame in the SDK's
// types, so the loop closes in finalize, which measures the seam and repairs it.
import { MOTION_PRESETS, VIDEO_DURATIONS } from '../../contracts/catalog.js';
import { ProviderError, type ChainedVideoPort, type VideoClip, type VideoStartRequest } from '../ports.js';
import { createFashnApi } from './fashn-api.js';
import { clipOperationName, createFashnVideoStatus, type FashnVideoStatusOptions } from './fashn-video-status.js';
import { imageDataUrl } from './product-to-model.js';
import { FASHN_IMAGE_TO_VIDEO } from './model-table.js';

export { FASHN_IMAGE_TO_VIDEO };
/** 720p: the delivered videos are 720 px on the short side; 1080p would double the cost for nothing finalize keeps. */
export const FASHN_VIDEO_RESOLUTION = '720p';
const PROMPT_MAX_CHARS = 200;
/** Starting a clip is one POST. */
const START_DEADLINE_MS = 60_000;

export const UNSUPPORTED_DURATION_MESSAGE = `Videos can be ${VIDEO_DURATIONS.join(', ')} seconds long.`;

const PRESET_MOTION: Record<(typeof MOTION_PRESETS)[number], string> = {
  Pivot: 'turning slowly to the side and back',
  Catwalk: 'walking towards the camera',
  '360 Spin': 'turning around in a full circle',
};

/** 5 → [5]; 8 → [10]; 16 → [10, 10 from the previous clip's last frame]. */
export function planFashnClips(durationSeconds: number): Array<VideoClip & { seconds: 5 | 10 }> {
  if (!(VIDEO_DURATIONS as readonly number[]).includes(durationSeconds)) throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
  const clips: Array<VideoClip & { seconds: 5 | 10 }> = [];
  for (let covered = 0; covered < durationSeconds; covered += clips[clips.length - 1]!.seconds) {
    const seconds = durationSeconds - covered <= 5 ? 5 : 10;
    clips.push({ seconds, keyframe: clips.length === 0 ? 'source' : 'previous-clip-last-frame' });
  }
  return clips;
}

export function fashnMotionPrompt(prompt: string): string {
  const preset = MOTION_PRESETS.find((name) => name.toLowerCase() === prompt.trim().toLowerCase());
  return (preset ? PRESET_MOTION[preset] : prompt.trim()).slice(0, PROMPT_MAX_CHARS);
}

export async function imageToVideoInputs(request: VideoStartRequest, seconds: 5 | 10): Promise<Record<string, string | number>> {
  return {
    image: await imageDataUrl(request.image),
    prompt: fashnMotionPrompt(request.prompt),
    duration: seconds,
    resolution: FASHN_VIDEO_RESOLUTION,
  };
}

export type FashnVideoOptions = FashnVideoStatusOptions;

export function createFashnVideo(options: FashnVideoOptions): ChainedVideoPort {
  const api = createFashnApi(options);
  return {
    planClips: planFashnClips,
    async start(request) {
      const clip = planFashnClips(request.durationSeconds)[request.clipIndex ?? 0];
      if (!clip) throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
      const inputs = await imageToVideoInputs(request, clip.seconds);
      const predictionId = await api.run(FASHN_IMAGE_TO_VIDEO, inputs, Date.now() + START_DEADLINE_MS);
      return { operationName: clipOperationName(predictionId, request.output), model: `fashn:${FASHN_IMAGE_TO_VIDEO}` };
    },
    check: createFashnVideoStatus(options).check,
  };
}
