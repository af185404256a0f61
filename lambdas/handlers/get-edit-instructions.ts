import type { EditInstructions } from '../contracts/generations.js';
import { publicRoute } from '../core/http.js';
import { EDIT_HELP, EDIT_INSTRUCTIONS } from '../providers/local-engine/edit-instructions.js';
import { readProviderConfig } from '../providers/registry.js';

// What the edit screen shows as help: the local engine's instructions when it is the configured edit engine.
const answer: EditInstructions =
  readProviderConfig().edit === 'local'
    ? { engine: 'local-engine', instructions: [...EDIT_INSTRUCTIONS], help: EDIT_HELP }
    : { engine: 'cloud', instructions: [], help: 'Describe the change in a sentence, e.g. "replace the background with a white studio wall".' };

export const handler = publicRoute({}, async () => answer);
