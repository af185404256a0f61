// Task Upscale of the generation workflow: the same work as Process, for an upscale, in the one function whose bundle
// carries the preview engine's ESRGAN weights (lambdas/workflows.ts).
import { processGeneration } from '../domain/generation/work.js';
import { workflowTask } from '../core/task.js';
import { GenerationTaskInput } from '../contracts/workflows.js';

export const handler = workflowTask('Upscale', GenerationTaskInput, processGeneration);
