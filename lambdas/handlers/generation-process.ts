// Task Process of the generation workflow.
import { processGeneration } from '../domain/generation/work.js';

export const handler = processGeneration;
