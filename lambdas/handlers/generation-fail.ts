// Task Fail of the generation workflow (reached by Catch).
import { failGenerationTask } from '../domain/generation/work.js';

export const handler = failGenerationTask;
