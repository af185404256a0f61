// Video workflow task CheckClip: asks the provider whether the current clip is ready.
import { checkClip, type OutputState } from '../domain/video/clips.js';

export const handler = (state: OutputState): Promise<OutputState> => checkClip(state);
