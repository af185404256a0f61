// The local studio engine (the twin's default adapter of every AI port): deterministic image and video "generation" with sharp and ffmpeg, no AI.
// Every result says so: model 'local-engine', and a "ModelLoop local engine" mark on generated pictures and clips.
import type { S3Client } from '@aws-sdk/client-s3';
import type { LocalEngine } from '../ports.js';
import { localEdit } from './edit.js';
import { withInjectedFaults } from './faults.js';
import { localOnModelImage } from './on-model-image.js';
import { localUpscale } from './upscale.js';
import { LocalVideoEngine } from './video.js';

export { LOCAL_ENGINE_MODEL } from './raster.js';
export { localOnModelImage, localEdit, localUpscale, LocalVideoEngine };
export { EDIT_HELP, EDIT_INSTRUCTIONS, parseEditInstructions, type EditStep } from './edit-instructions.js';
export { MOTION_KEYWORDS, presetForPrompt, type MotionPreset } from './motion.js';
export { LABEL_TEXT } from './label.js';

/**
 * The engine as the provider registry loads it (LOCAL_ENGINE_MODULE); videos are written with the given client.
 * Off a Lambda runtime, MODELLOOP_LOCAL_ENGINE_FAULTS injects faults into its calls (./faults.ts, the chaos suite).
 */
export function createLocalEngine({ s3 }: { s3: S3Client }): LocalEngine {
  return withInjectedFaults({ onModelImage: localOnModelImage, edit: localEdit, upscale: localUpscale, video: new LocalVideoEngine(() => s3) });
}
