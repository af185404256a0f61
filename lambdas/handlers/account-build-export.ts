// Task BuildExport of the accountExport workflow: the "Download my data" zip, streamed into the caller's folder.
import { AccountExportInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { buildAccountExport } from '../domain/account/export-archive.js';

export const handler = workflowTask('BuildExport', AccountExportInput, buildAccountExport);
