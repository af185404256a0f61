// Google adapters on the official @google/genai SDK: Gemini image (on-model photos, free-text edits) and Veo 3.1
// (video). The key is read from Secrets Manager (api-key.ts); model ids are settings (models.ts, config.ts).
export { googleApiKey, googleApiKeyReader, type ApiKeyReader } from './api-key.js';
export { googleClient, type GoogleClient, type GoogleClientOptions } from './client.js';
export { createGeminiImage, type GeminiImageOptions } from './gemini-image.js';
export { createVeoVideo, planVeoClips, type VeoVideoOptions, type VeoVideoPort } from './veo-video.js';
export { createVeoStatus, type VeoStatusOptions } from './veo-status.js';
export { GOOGLE_DEFAULTS } from './models.js';
