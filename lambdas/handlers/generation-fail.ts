// Task Fail of the generation workflow (reached by Catch).
import { failGenerationTask } from '../domain/generation/failure.js';
import { workflowTask } from '../core/task.js';
import { GenerationFailInput } from '../contracts/workflows.js';

export const handler = workflowTask('Fail', GenerationFailInput, failGenerationTask);
