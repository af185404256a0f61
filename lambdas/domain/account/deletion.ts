// Deleting an account. The route checks the typed e-mail against the caller's, marks the profile with the account's
// tombstone id and starts the delete-account workflow (lib/workflows/delete-account.asl.json), named by that id, so
// the deletion runs to its end whatever happens to the request (a cut connection, a closed tab) and a retried
// request is the same execution; the reconciler resumes one whose execution died (deletion-executions.ts). The
// workflow's steps:
//   1. the Cognito user is deleted, by the name the profile keeps: nobody signs in as them again;
//   2. the ledger is kept for accounting, anonymised: moved to the tombstone id (data/account-repo.ts);
//   3. every item of the user in every table ACCOUNT_DELETION lists is deleted, the profile last;
//   4. every object under the user's folder in both buckets is deleted;
//   5. after 30 s (every API function has ended by then), steps 2-4 run once more: from the mark on, the caller gate
//      refuses the account on every route, so only a request let in just before the mark can have written since.
// Steps 2-4 work until a deadline and are called again while they answer `more`; each is safe to run twice.
import {
  ACCOUNT_MESSAGES,
  type AccountDeletionInput,
  type AccountDeletionProgress,
  type DeleteAccountRequest,
  type DeleteAccountResponse,
} from '../../contracts/account.js';
import { AppError } from '../../core/errors.js';
import { Reply, type Caller } from '../../core/http.js';
import { log } from '../../core/log.js';
import { deletePoolUser } from '../../core/user-pool.js';
import { anonymiseLedgerChunk, deleteUserRecords, markAccountDeleting } from '../../data/account-repo.js';
import { getPoolUsername } from '../../data/credits-repo.js';
import { BUCKETS, type BucketName } from '../../data/tables.js';
import { deleteObjectsUnder } from '../../storage/object-deletion.js';
import { startDeletion } from './deletion-executions.js';

/** A step works this long, then hands back to the workflow (its functions time out at 60 s). */
const STEP_BUDGET_MS = 40_000;

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** POST /account/delete: 202 once the workflow is started (or already running). */
export async function requestAccountDeletion(caller: Caller, body: DeleteAccountRequest): Promise<Reply> {
  if (!caller.email || !sameAddress(body.confirmEmail, caller.email)) throw new AppError(400, 'EMAIL_MISMATCH', ACCOUNT_MESSAGES.emailMismatch);
  const tombstoneId = await markAccountDeleting(caller.userId, new Date().toISOString());
  const input: AccountDeletionInput = { userId: caller.userId, tombstoneId };
  await startDeletion(input);
  log.info('account deletion started', { userId: caller.userId, tombstoneId });
  const answer: DeleteAccountResponse = { status: 'deleting' };
  return new Reply(202, answer);
}

/** Step 1: by the pool username the profile keeps (a federated user's is `Google_<id>`, not the sub). */
export async function deleteSignIn(input: AccountDeletionInput): Promise<void> {
  await deletePoolUser(input.userId, await getPoolUsername(input.userId));
}

/** Step 2. */
export async function anonymiseLedger(input: AccountDeletionInput): Promise<AccountDeletionProgress> {
  const deadline = Date.now() + STEP_BUDGET_MS;
  const deletedAt = new Date().toISOString();
  let count = 0;
  for (;;) {
    const chunk = await anonymiseLedgerChunk(input.userId, input.tombstoneId, deletedAt);
    count += chunk.moved;
    if (!chunk.more) return { more: false, count };
    if (Date.now() > deadline) return { more: true, count };
  }
}

/** Step 3. */
export async function deleteRecords(input: AccountDeletionInput): Promise<AccountDeletionProgress> {
  const { deleted, more } = await deleteUserRecords(input.userId, Date.now() + STEP_BUDGET_MS);
  return { more, count: deleted };
}

/** Step 4: both buckets keep a user's files under their own folder, `<user id>/`. */
export async function deleteObjects(input: AccountDeletionInput): Promise<AccountDeletionProgress> {
  const deadline = Date.now() + STEP_BUDGET_MS;
  let count = 0;
  for (const bucket of Object.keys(BUCKETS) as BucketName[]) {
    const { deleted, more } = await deleteObjectsUnder(bucket, `${input.userId}/`, deadline);
    count += deleted;
    if (more) return { more, count };
  }
  return { more: false, count };
}
