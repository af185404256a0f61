// Task DisconnectShops of the delete-account workflow: the app is uninstalled from every connected shop.
import { AccountDeletionInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { disconnectAllShops } from '../domain/shopify/connect.js';

export const handler = workflowTask('DisconnectShops', AccountDeletionInput, async ({ userId }) => {
  await disconnectAllShops(userId);
});
