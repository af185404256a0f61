// Task Process of the generation workflow.
import { processGeneration } from '../domain/generation/work.js';
import { workflowTask } from '../core/task.js';

export const handler = workflowTask('Process', processGeneration);
