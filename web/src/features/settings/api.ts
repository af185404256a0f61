// The account's own data: "Download my data" and Delete Account (POST /account/export, GET /account/export,
// POST /account/delete).
import { exportAccountDataRoute, getAccountExportRoute, requestAccountDeletionRoute } from '@contracts/account';
import { callRoute } from '@/lib/api';

/** Starts an export: answers at once, the zip comes later (the `account-export` live list and an e-mail). */
export const exportAccountData = () => callRoute(exportAccountDataRoute);

/** The latest export; a ready one with its zip signed now. Its query key starts with the live list it belongs to. */
export const latestAccountExport = () => callRoute(getAccountExportRoute);
export const accountExportQueryKey = ['account-export'] as const;

export const deleteAccount = (confirmEmail: string) => callRoute(requestAccountDeletionRoute, { body: { confirmEmail } });
