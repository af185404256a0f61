// The account's own data: "Download my data" and Delete Account (POST /account/export, POST /account/delete).
import { exportAccountDataRoute, requestAccountDeletionRoute } from '@contracts/account';
import { callRoute } from '@/lib/api';

export const exportAccountData = () => callRoute(exportAccountDataRoute);

export const deleteAccount = (confirmEmail: string) => callRoute(requestAccountDeletionRoute, { body: { confirmEmail } });
