// Amazon Bedrock adapters: Stability AI Image Services (edit, upscale) and Luma Ray2 (video).
export { createStabilityEdit, type StabilityEditOptions } from './stability-edit.js';
export { createStabilityUpscale, fastUpscaleInputSize, type StabilityUpscaleOptions } from './stability-upscale.js';
export { createLumaVideo, type LumaStartRequest, type LumaVideoOptions, type LumaVideoPort } from './luma-video.js';
export { planClips, plannedSeconds, type ClipPlan } from './luma-request.js';
export { planEdit, type EditOperation } from './edit-instruction.js';
export { DEFAULT_STABILITY_MODEL_IDS, type StabilityModelIds } from './stability-models.js';
