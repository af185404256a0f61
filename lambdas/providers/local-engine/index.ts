// The local studio engine (DESIGN §5): deterministic image and video "generation" with sharp and ffmpeg, no AI.
// Every result says so: model 'local-engine', and a "ModelLoop local engine" mark on generated pictures and clips.
export { LOCAL_ENGINE_MODEL } from './raster.js';
export { localOnModelImage } from './on-model-image.js';
export { localEdit } from './edit.js';
export { EDIT_HELP, EDIT_INSTRUCTIONS, parseEditInstructions, type EditStep } from './edit-instructions.js';
export { localUpscale } from './upscale.js';
export { LocalVideoEngine } from './video.js';
export { MOTION_KEYWORDS, presetForPrompt, type MotionPreset } from './motion.js';
export { LABEL_TEXT } from './label.js';
