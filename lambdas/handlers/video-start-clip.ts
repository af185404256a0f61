// Video workflow task StartClip: starts the provider's next clip of one output.
import { startClip } from '../domain/video/clip-start.js';
import type { OutputState } from '../domain/video/clips.js';
import { workflowTask } from '../core/task.js';
import { VideoOutputState } from '../contracts/workflows.js';

export const handler = workflowTask('StartClip', VideoOutputState, (state: OutputState): Promise<OutputState> => startClip(state));
