// Google adapters on the official @google/genai SDK: Gemini image (on-model photos, free-text edits) and Gemini Omni
// (video, Interactions API). The key is read from Secrets Manager (api-key.ts); model ids are settings (models.ts,
// config.ts), checked against the dated table (model-table.ts).
export { googleApiKey, googleApiKeyReader, type ApiKeyReader } from './api-key.js';
export { googleClient, type GoogleClient, type GoogleClientOptions } from './client.js';
export { createGeminiImage, type GeminiImageOptions } from './gemini-image.js';
export { createOmniVideo, type OmniVideoOptions, type OmniVideoPort } from './omni-video.js';
export { createOmniStatus, type OmniStatusOptions } from './omni-status.js';
export { planOmniClips } from './omni-plan.js';
export { GOOGLE_DEFAULTS } from './models.js';
