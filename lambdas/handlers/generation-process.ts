// Task Process of the generation workflow.
import { processGeneration } from '../domain/generation/work.js';
import { workflowTask } from '../core/task.js';
import { GenerationTaskInput } from '../contracts/workflows.js';

export const handler = workflowTask('Process', GenerationTaskInput, processGeneration);
