// Task Summarize of the batch workflow: the summary once every photo has ended.
import { summarizeTask } from '../domain/batch/work.js';

export const handler = summarizeTask;
