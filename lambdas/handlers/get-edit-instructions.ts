import type { EditInstructions } from '../contracts/generations.js';
import { publicRoute } from '../core/http.js';
import { EDIT_HELP, EDIT_INSTRUCTIONS } from '../providers/local-engine/edit-instructions.js';

// What the edit screen shows as help: the local engine's instructions when it is the edit engine. Only PROVIDER_EDIT
// matters here (the registry, which checks every provider setting, is not needed to answer this).
const localEdit = (process.env.PROVIDER_EDIT?.trim() || 'local') === 'local';
const answer: EditInstructions = localEdit
  ? { engine: 'local-engine', instructions: [...EDIT_INSTRUCTIONS], help: EDIT_HELP }
  : { engine: 'cloud', instructions: [], help: 'Describe the change in a sentence, e.g. "replace the background with a white studio wall".' };

export const handler = publicRoute({}, async () => answer);
