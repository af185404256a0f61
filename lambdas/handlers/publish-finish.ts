// Task Finish of the publish workflow: the publication ends complete, partial or failed.
import { PublishFinishInput } from '../contracts/workflows.js';
import { workflowTask } from '../core/task.js';
import { finishPublicationStep } from '../domain/shopify/finish.js';

export const handler = workflowTask('Finish', PublishFinishInput, async (input) => {
  await finishPublicationStep(input);
});
