// Video workflow task FinalizeOutput: exact duration and size, sealed loop, poster frame, stored.
import type { OutputState } from '../domain/video/clips.js';
import { finalizeOutput } from '../domain/video/finalize.js';
import { workflowTask } from '../core/task.js';

export const handler = workflowTask('FinalizeOutput', (state: OutputState) => finalizeOutput(state));
