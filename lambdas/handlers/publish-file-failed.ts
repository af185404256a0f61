// Task FileFailed of the publish workflow (the Catch inside the Map's iteration).
import { PublishFileFailedInput } from '../contracts/workflows.js';
import { workflowTask } from '../core/task.js';
import { publishFileFailed } from '../domain/shopify/finish.js';

export const handler = workflowTask('FileFailed', PublishFileFailedInput, publishFileFailed);
