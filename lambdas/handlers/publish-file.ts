// Task PublishFile of the publish workflow: one file one stage further; 'wait' when Shopify needs time.
import { PublishFileInput } from '../contracts/workflows.js';
import { workflowTask } from '../core/task.js';
import { publishFileStep } from '../domain/shopify/publish.js';

export const handler = workflowTask('PublishFile', PublishFileInput, publishFileStep);
