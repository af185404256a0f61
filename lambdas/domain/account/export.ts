// "Download my data" as requests and workflow steps around the zip (the zip itself: export-archive.ts). Long work stays
// out of requests: an account with thousands of results takes longer than the 30 s an HTTP API integration may run.
// POST /account/export takes the account's one export place, records the export on the profile (building) and starts
// the accountExport workflow (ids only in its state), and answers 202 at once. BuildExport writes the zip and marks the
// export ready; the profile's change reaches the owner's open pages through the table stream (the `account-export`
// list), and MailExport e-mails the owner a link to Settings, where GET /account/export signs the zip's URL at each
// read.
import { randomUUID } from 'node:crypto';
import { ACCOUNT_EXPORT_MESSAGES, type AccountExport, type AccountExportInput, type LatestAccountExport } from '../../contracts/account.js';
import { EXPORT_LEASE_SECONDS, EXPORT_RUNNING_MESSAGE, SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import { requireEnv } from '../../core/config.js';
import { AppError } from '../../core/errors.js';
import type { Caller } from '../../core/http.js';
import { log } from '../../core/log.js';
import { canSendMail, sendMail } from '../../core/mail.js';
import { executionArn, executionStatus, startExecution } from '../../core/sfn.js';
import { endDataExport, EXPORT_PLACE, getDataExport, startDataExport, type DataExportRecord } from '../../data/account-export-repo.js';
import { releaseLease } from '../../data/limits-repo.js';
import { storedSize } from '../../storage/object-transfer.js';
import { presignAttachment, signedUrlExpiresAt } from '../../storage/presign.js';
import { ZIP_TYPE } from '../../storage/zip-archive.js';
import { ensureProfile } from '../credits.js';
import { takeExclusive } from '../limits.js';

export const ACCOUNT_EXPORT_WORKFLOW = 'accountExport';
/**
 * How long an export's execution may be missing after the route recorded it: the route starts it right after. Past
 * this, an export still building without a running execution (the twin restarted, the execution timed out) is lost.
 */
const EXECUTION_START_GRACE_MS = 60_000;

/**
 * POST /account/export: one export of a user runs at a time, and a few a day (USER_LIMITS.rates.exports), both taken
 * in one transaction before anything else (429 beyond them). The export is recorded on the profile and its workflow
 * started; the answer comes at once, before the zip exists.
 */
export async function requestAccountExport(caller: Caller, now = new Date()): Promise<AccountExport> {
  const { userId } = caller;
  // Random, so that two exports of the same second never write the same object.
  const exportId = randomUUID();
  await takeExportPlace(userId, exportId, now);
  const record: DataExportRecord = { id: exportId, status: 'building', requested_at: now.toISOString() };
  try {
    // The export lives on the profile: an account that never read its profile gets it now, as on any first call.
    if (!(await startDataExport(userId, exportId, record.requested_at))) {
      await ensureProfile(caller);
      if (!(await startDataExport(userId, exportId, record.requested_at))) throw new Error('The profile of an export disappeared');
    }
    await startExecution(ACCOUNT_EXPORT_WORKFLOW, exportId, { userId, exportId } satisfies AccountExportInput);
  } catch (error) {
    await endDataExport(userId, exportId, { status: 'failed' }, new Date().toISOString());
    await releaseLease(userId, EXPORT_PLACE, exportId);
    throw error;
  }
  return onWire(record);
}

/**
 * The account's export place for `exportId`. A place held by an export that is lost (still building, but its
 * execution ended or never ran) is given back first, and that export marked failed, so a killed run blocks no one.
 */
async function takeExportPlace(userId: string, exportId: string, now: Date): Promise<void> {
  const take = () => takeExclusive(userId, EXPORT_PLACE, exportId, EXPORT_LEASE_SECONDS, EXPORT_RUNNING_MESSAGE, now.getTime());
  try {
    await take();
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'ALREADY_RUNNING')) throw error;
    const { dataExport } = await getDataExport(userId);
    if (!dataExport || !(await isLost(dataExport, now))) throw error;
    await endDataExport(userId, dataExport.id, { status: 'failed' }, now.toISOString());
    await releaseLease(userId, EXPORT_PLACE, dataExport.id);
    log.warn('a lost export gave back its place', { exportId: dataExport.id });
    await take();
  }
}

async function isLost(dataExport: DataExportRecord, now: Date): Promise<boolean> {
  if (dataExport.status !== 'building') return false;
  const status = await executionStatus(executionArn(ACCOUNT_EXPORT_WORKFLOW, dataExport.id));
  if (status === 'RUNNING') return false;
  return status !== undefined || now.getTime() - Date.parse(dataExport.requested_at) > EXECUTION_START_GRACE_MS;
}

/**
 * GET /account/export: the latest export as recorded (a lost one still says building until the next POST finds it
 * lost and starts another).
 */
export async function latestAccountExport(userId: string): Promise<LatestAccountExport> {
  const { dataExport } = await getDataExport(userId);
  if (!dataExport) return { export: null };
  if (dataExport.status !== 'ready') return { export: onWire(dataExport) };
  // The zip goes after a day (the abandoned-uploads lifecycle rule): then there is nothing to offer.
  if ((await storedSize('results', dataExport.key!)) === undefined) return { export: null };
  return {
    export: onWire(dataExport, {
      url: await presignAttachment('results', dataExport.key!, ZIP_TYPE, dataExport.file_name!, SIGNED_URL_SECONDS),
      expiresAt: await signedUrlExpiresAt(SIGNED_URL_SECONDS),
    }),
  };
}

function onWire(record: DataExportRecord, signed?: { url: string; expiresAt: string }): AccountExport {
  return {
    exportId: record.id,
    status: record.status,
    requestedAt: record.requested_at,
    url: signed?.url ?? null,
    expiresAt: signed?.expiresAt ?? null,
    fileName: record.file_name ?? null,
    filesIncluded: record.files_included ?? null,
    filesLinked: record.files_linked ?? null,
  };
}

/** Task ExportFailed (BuildExport's Catch): the export failed, its place given back; asking again starts another. */
export async function failAccountExport({ userId, exportId }: AccountExportInput): Promise<void> {
  await endDataExport(userId, exportId, { status: 'failed' }, new Date().toISOString());
  await releaseLease(userId, EXPORT_PLACE, exportId);
}

/**
 * Task MailExport: tells the owner the zip is ready, with the way to it (Settings → Your Data signs its URL when
 * asked, so the mail carries no URL that could expire before it is read). A stage without a mail sender sends none.
 */
export async function mailAccountExport({ userId, exportId }: AccountExportInput): Promise<{ mailed: boolean }> {
  if (!canSendMail()) {
    log.info('no mail sender configured: the export is told over the live channel only', { exportId });
    return { mailed: false };
  }
  const { email, dataExport } = await getDataExport(userId);
  if (!email || dataExport?.id !== exportId || dataExport.status !== 'ready') return { mailed: false };
  const settings = `${requireEnv('WEB_URL').replace(/\/+$/, '')}/settings#your-data`;
  await sendMail(
    {
      to: email,
      subject: ACCOUNT_EXPORT_MESSAGES.mailSubject,
      text: [
        `The copy of your ModelLoop data you asked for on ${dataExport.requested_at.slice(0, 10)} is ready:`,
        `${dataExport.files_included ?? 0} files in the zip and ${dataExport.files_linked ?? 0} as links, with every record of your account.`,
        '',
        `Download it from Settings, Your Data, within a day: ${settings}`,
        '',
        'If you did not ask for it, sign in and change your password.',
      ].join('\n'),
    },
    { exportId },
  );
  return { mailed: true };
}
