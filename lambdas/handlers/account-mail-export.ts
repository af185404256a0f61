// Task MailExport of the accountExport workflow: tells the owner by e-mail that their data is ready.
import { AccountExportInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { mailAccountExport } from '../domain/account/export.js';

export const handler = workflowTask('MailExport', AccountExportInput, mailAccountExport);
