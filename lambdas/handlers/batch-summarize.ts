// Task Summarize of the batch workflow: the summary once every photo has ended.
import { summarizeTask } from '../domain/batch/work.js';
import { workflowTask } from '../core/task.js';
import { BatchSummarizeInput } from '../contracts/workflows.js';

export const handler = workflowTask('Summarize', BatchSummarizeInput, summarizeTask);
