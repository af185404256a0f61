// Task ArchiveFailed of the batchArchive workflow (BuildArchive's Catch): the zip job failed; asking again restarts it.
import { BatchArchiveInput } from '../contracts/workflows.js';
import { workflowTask } from '../core/task.js';
import { failBatchArchive } from '../domain/batch/archive.js';

export const handler = workflowTask('ArchiveFailed', BatchArchiveInput, failBatchArchive);
