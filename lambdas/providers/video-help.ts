// What the video screen, and an API caller before paying, learns of a motion prompt from the configured video adapter:
// the preview engine renders one of its presets and says which phrases it follows and which it does not (listed under
// the result as not rendered) and how each output of an order differs; a provider's video model follows the words as
// written. Apart from the registry (./registry.ts), whose bundle holds every adapter: this needs only the video choice
// of the provider configuration and the preview engine's motion table (no image code).
import type { VideoMotionReading } from '../contracts/video.js';
import { readProviderChoice } from './config.js';
import { describeOutput, MOTION_KEYWORDS, readMotionPrompt, type MotionPreset } from './local-engine/motion.js';

/** An order has at most this many outputs (VIDEO_OUTPUT_COUNTS). */
const MOST_OUTPUTS = 5;

const PRESET_WORDS = (Object.keys(MOTION_KEYWORDS) as MotionPreset[])
  .map((preset) => `${preset} (${MOTION_KEYWORDS[preset].slice(0, 4).join(', ')} …)`)
  .join(', ');

export const PREVIEW_MOTION_HELP = `The preview engine makes three motions: ${PRESET_WORDS}. It renders the phrases of your prompt that name one of them and lists the rest as not rendered.`;
const PROVIDER_MOTION_HELP = 'Describe the motion in a sentence, e.g. "the model turns slowly to the left and back".';

/** The refusal of a prompt the preview engine would render none of. */
export const MOTION_NOT_FOLLOWED_MESSAGE =
  'The preview engine renders none of this motion prompt. Choose Pivot, Catwalk or 360 Spin, or use words it follows, such as turn, spin, walk, sway or tilt.';

/** Only the video choice is read (every function gets the provider selection). `outputs`: how many outputs to describe. */
export function videoMotionReading(prompt: string, outputs = MOST_OUTPUTS, env: NodeJS.ProcessEnv = process.env): VideoMotionReading {
  if (readProviderChoice(env, 'PROVIDER_VIDEO') !== 'local') {
    return { engine: 'provider', preset: null, followed: [prompt.trim()], notRendered: [], outputs: [], help: PROVIDER_MOTION_HELP };
  }
  const { preset, followed, notRendered } = readMotionPrompt(prompt);
  return {
    engine: 'preview-engine',
    preset: preset ?? null,
    followed,
    notRendered,
    outputs: preset ? Array.from({ length: outputs }, (_, index) => describeOutput(preset, index)) : [],
    help: PREVIEW_MOTION_HELP,
  };
}
