// Task Fail of the generation workflow (reached by Catch).
import { failGenerationTask } from '../domain/generation/failure.js';

export const handler = failGenerationTask;
