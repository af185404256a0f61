// Deleting an account and downloading its data: the requests, answers and the deletion workflow's input, shared by
// the handlers and the web app.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { defineRoute } from './route.js';

/** POST /account/delete: the caller types their e-mail address to confirm. */
export const DeleteAccountRequest = /* @__PURE__ */ (() => z.object({
  confirmEmail: z.string({ error: 'Please type your e-mail address to confirm' }).trim().min(1, 'Please type your e-mail address to confirm').max(320),
}))();
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequest>;

/** 202: the deletion workflow runs to its end whatever happens to the request; the web app then signs out. */
export const DeleteAccountResponse = /* @__PURE__ */ (() => z.object({ status: z.literal('deleting') }))();
export type DeleteAccountResponse = z.infer<typeof DeleteAccountResponse>;

export const ACCOUNT_MESSAGES = {
  emailMismatch: 'The e-mail address does not match your account.',
  /** Every route's answer (401 ACCOUNT_DELETED) from the moment Delete Account was asked, to a token or an API key. */
  deleted: 'This account has been deleted.',
  /** What the confirm dialog says about what is kept. */
  ledgerKept:
    'Your credit transactions are kept for accounting, anonymised: they no longer name you or your e-mail address.',
} as const;

/** The delete-account workflow's input: the account and the random id its ledger entries move to. */
export const AccountDeletionInput = /* @__PURE__ */ (() => z.object({ userId: z.string().min(1), tombstoneId: z.string().regex(/^deleted-[0-9a-f-]{36}$/) }))();
export type AccountDeletionInput = z.infer<typeof AccountDeletionInput>;
/** What a repeating step of the workflow answers: `more` while it has work left (the workflow calls it again). */
export interface AccountDeletionProgress {
  more: boolean;
  count: number;
}

/** Where an export is: its workflow is building the zip, the zip is ready, or it could not be built. */
export const ACCOUNT_EXPORT_STATUSES = ['building', 'ready', 'failed'] as const;
export type AccountExportStatus = (typeof ACCOUNT_EXPORT_STATUSES)[number];

/**
 * "Download my data": a zip of every record of the account and its files, built by the accountExport workflow. POST
 * /account/export answers 202 at once with the export `building`; the zip comes later, told over the live channel
 * (the `account-export` list) and by e-mail. GET /account/export answers the latest export, a ready one with its zip
 * as a signed URL that saves as a file (signed at each read).
 */
export const AccountExport = /* @__PURE__ */ (() => z.object({
  exportId: z.string(),
  status: z.enum(ACCOUNT_EXPORT_STATUSES),
  requestedAt: z.string(),
  /** Ready: the zip. */
  url: z.string().nullable(),
  /** When `url` stops working (the zip itself is kept a day). */
  expiresAt: z.string().nullable(),
  fileName: z.string().nullable(),
  /** Files of the account inside the zip; the rest are listed in files.csv with signed links. */
  filesIncluded: z.number().int().nullable(),
  filesLinked: z.number().int().nullable(),
}))();
export type AccountExport = z.infer<typeof AccountExport>;

/** GET /account/export: the latest export whose zip still exists, if any. */
export const LatestAccountExport = /* @__PURE__ */ (() => z.object({ export: AccountExport.nullable() }))();
export type LatestAccountExport = z.infer<typeof LatestAccountExport>;

export const ACCOUNT_EXPORT_MESSAGES = {
  /** The e-mail sent when the zip is ready. */
  mailSubject: 'Your ModelLoop data is ready to download',
  failed: 'Your data could not be prepared. Please try again.',
} as const;

/** The accountExport workflow's input (execution name = the export id): ids only. */
export const AccountExportInput = /* @__PURE__ */ (() => z.object({ userId: z.string().min(1), exportId: z.string().uuid() }))();
export type AccountExportInput = z.infer<typeof AccountExportInput>;

// ——— Routes (lambdas/contracts/route.ts) ———

export const requestAccountDeletionRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/account/delete',
  auth: 'user',
  summary: 'Delete the account: checks the typed e-mail, then removes everything',
  body: DeleteAccountRequest,
  response: DeleteAccountResponse,
  status: 202,
  // Not the caller's address, so the sample is refused (EMAIL_MISMATCH): with the caller's own, it really deletes them.
  sample: { body: { confirmEmail: 'type-the-account-address@example.com' } },
}))();

export const exportAccountDataRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/account/export',
  auth: 'user',
  summary: "Download my data: starts building a zip of the account's records and files (ready later: live update and e-mail)",
  response: AccountExport,
  status: 202,
}))();

export const getAccountExportRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/account/export',
  auth: 'user',
  summary: 'The latest "Download my data" export: building, failed, or ready with its zip as a signed URL',
  response: LatestAccountExport,
}))();
