// Video workflow task CheckClip: asks the provider whether the current clip is ready.
import { checkClip, type OutputState } from '../domain/video/clips.js';
import { workflowTask } from '../core/task.js';
import { VideoOutputState } from '../contracts/workflows.js';

export const handler = workflowTask('CheckClip', VideoOutputState, (state: OutputState): Promise<OutputState> => checkClip(state));
