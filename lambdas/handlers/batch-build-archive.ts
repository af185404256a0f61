// Task BuildArchive of the batchArchive workflow: the "Download all" zip of a batch, streamed into the results bucket.
import { BatchArchiveInput } from '../contracts/workflows.js';
import { workflowTask } from '../core/task.js';
import { buildBatchArchive } from '../domain/batch/archive.js';

export const handler = workflowTask('BuildArchive', BatchArchiveInput, buildBatchArchive);
