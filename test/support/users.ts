// Real users of the local twin's cognito-local (lib/local/users.ts), with unique addresses per test.
import { randomUUID } from 'node:crypto';
import { createUser as createLocalUser, DEFAULT_PASSWORD, type LocalUser } from '../../lib/local/users.js';
import type { TwinInfo } from './global-twin.js';

export { cognitoClient, signIn, waitForCode } from '../../lib/local/users.js';

export type TestUser = LocalUser;

export const TEST_PASSWORD = DEFAULT_PASSWORD;

export function uniqueEmail(label = 'seller'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

export function createUser(twin: TwinInfo, email = uniqueEmail(), password = TEST_PASSWORD): Promise<TestUser> {
  return createLocalUser(twin, email, password);
}
