// Video workflow task StartClip: starts the provider's next clip of one output.
import { startClip } from '../domain/video/clip-start.js';
import type { OutputState } from '../domain/video/clips.js';

export const handler = (state: OutputState): Promise<OutputState> => startClip(state);
