// Installs the per-key rate limit into the http wrapper: every handler the public API exposes imports this module,
// so each call made with a key counts against that key's limit (USER_LIMITS.rates.apiKey) before the handler runs.
// A unit test checks that every public-API handler imports it; without it the wrapper refuses key calls.
import { installApiKeyGate } from '../core/http.js';
import { takeRequest } from './limits.js';

installApiKeyGate((caller) => takeRequest(`key#${caller.apiKeyId}`, 'apiKey'));
