// What the edit screen shows as help for the configured edit adapter: the local engine's instructions, or a hint for
// the cloud model that takes free text. Apart from the registry (./registry.ts), whose bundle holds every adapter and
// the image code: this needs only the edit choice of the provider configuration and the local engine's instruction list.
import type { EditInstructions } from '../contracts/generations.js';
import { readProviderChoice } from './config.js';

/** Only the edit choice is read: every function gets the provider selection, only provider functions the adapters' settings. */
export async function editInstructions(env: NodeJS.ProcessEnv = process.env): Promise<EditInstructions> {
  if (readProviderChoice(env, 'PROVIDER_EDIT') !== 'local') {
    return { engine: 'cloud', instructions: [], help: 'Describe the change in a sentence, e.g. "replace the background with a white studio wall".' };
  }
  const { EDIT_HELP, EDIT_INSTRUCTIONS } = await import('./local-engine/edit-instructions.js');
  return { engine: 'local-engine', instructions: [...EDIT_INSTRUCTIONS], help: EDIT_HELP };
}
