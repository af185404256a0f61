// Task FailPhoto of the batch workflow (reached by the Catch inside the Map's iteration).
import { failPhotoTask } from '../domain/batch/work.js';
import { workflowTask } from '../core/task.js';
import { BatchFailPhotoInput } from '../contracts/workflows.js';

export const handler = workflowTask('FailPhoto', BatchFailPhotoInput, failPhotoTask);
