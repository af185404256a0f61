// Video workflow task FinalizeOutput: exact duration and size, sealed loop, poster frame, stored.
import type { OutputState } from '../domain/video/clips.js';
import { finalizeOutput } from '../domain/video/finalize.js';

export const handler = (state: OutputState) => finalizeOutput(state);
