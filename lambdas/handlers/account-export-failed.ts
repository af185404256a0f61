// Task ExportFailed of the accountExport workflow (BuildExport's Catch): the export failed; asking again starts another.
import { AccountExportInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { failAccountExport } from '../domain/account/export.js';

export const handler = workflowTask('ExportFailed', AccountExportInput, failAccountExport);
