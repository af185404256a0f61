// Video workflow task StartClip: starts the provider's next clip of one output.
import { startClip, type OutputState } from '../domain/video/clips.js';

export const handler = (state: OutputState): Promise<OutputState> => startClip(state);
