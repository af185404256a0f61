// The account's own data: "Download my data" and Delete Account (POST /account/export, POST /account/delete).
import { AccountExport, DeleteAccountResponse } from '@contracts/account';
import { apiRequest } from '@/lib/api';

export const exportAccountData = () => apiRequest(AccountExport, '/account/export', { method: 'POST' });

export const deleteAccount = (confirmEmail: string) => apiRequest(DeleteAccountResponse, '/account/delete', { method: 'POST', body: { confirmEmail } });
