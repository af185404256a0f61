// Video workflow task FinalizeOutput: exact duration and size, sealed loop, poster frame, stored.
import type { OutputState } from '../domain/video/clips.js';
import { finalizeOutput } from '../domain/video/finalize.js';
import { workflowTask } from '../core/task.js';
import { VideoFinalizeInput } from '../contracts/workflows.js';

export const handler = workflowTask('FinalizeOutput', VideoFinalizeInput, (state: OutputState) => finalizeOutput(state));
