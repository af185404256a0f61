// Installs the caller gate into the http wrapper: every handler of a user route imports this module (a unit test
// keeps it so; without it the wrapper refuses every call). Before any handler runs:
// - an account being deleted or deleted is refused (401 ACCOUNT_DELETED), whether the call carries an ID token that
//   is still valid or one of the account's API keys: from the moment Delete Account was asked, nothing is read or
//   written for it;
// - a call with an API key is refused once the key was revoked (401 API_KEY_REVOKED), even while the authorizer's
//   cached answer still lets it through, and is counted against the key's rate (USER_LIMITS.rates.apiKey).
// Both facts come from one strongly consistent BatchGetItem per request (data/account-repo.ts). A deletion is final,
// so an account found deleted is remembered by this process and never read again.
import { accountDeleted } from '../core/errors.js';
import { apiKeyDenied, installCallerGate } from '../core/http.js';
import { readCallerStanding } from '../data/account-repo.js';
import { takeRequest } from './limits.js';

/** Bounded so that a long-lived process can't grow it without end; a forgotten account is simply read again. */
const REMEMBERED_DELETED_ACCOUNTS = 10_000;
const deletedAccounts = new Set<string>();

installCallerGate(async (caller) => {
  if (deletedAccounts.has(caller.userId)) throw accountDeleted();
  const standing = await readCallerStanding(caller.userId, caller.apiKeyId);
  if (standing.accountDeleted) {
    if (deletedAccounts.size >= REMEMBERED_DELETED_ACCOUNTS) deletedAccounts.clear();
    deletedAccounts.add(caller.userId);
    throw accountDeleted();
  }
  if (caller.apiKeyId) {
    if (standing.key === 'revoked') throw apiKeyDenied('API_KEY_REVOKED');
    if (standing.key !== 'active') throw apiKeyDenied('API_KEY_INVALID');
    await takeRequest(`key#${caller.apiKeyId}`, 'apiKey');
  }
});
