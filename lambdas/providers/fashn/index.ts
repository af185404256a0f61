// On-model photos and videos from a FASHN-compatible HTTPS API, the key kept in AWS Secrets Manager.
export { createFashnOnModel, DEFAULT_DEADLINE_MS, type FashnOnModelOptions } from './fashn-on-model.js';
export { createFashnVideo, planFashnClips, type FashnVideoOptions } from './fashn-video.js';
export { createApiKeyReader } from './api-key.js';
export { FASHN_PRODUCT_TO_MODEL } from './product-to-model.js';
