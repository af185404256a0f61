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

/**
 * Signs in a user of a third-party identity provider (`Google_<id>`, its own sub) the way the hosted UI would, through
 * the twin's TwinFederatedSignIn (lib/local/cognito-local-server.mjs); the first sign-in makes the user.
 */
export async function signInFederated(twin: TwinInfo, email = uniqueEmail('google'), providerUserId = String(Date.now()) + String(Math.floor(Math.random() * 1e6))): Promise<TestUser & { username: string }> {
  const response = await fetch(twin.cognitoEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.TwinFederatedSignIn' },
    body: JSON.stringify({ ClientId: twin.userPoolClientId, ProviderName: 'Google', ProviderUserId: providerUserId, Email: email }),
  });
  const answer = (await response.json()) as { AuthenticationResult?: { IdToken: string } };
  const idToken = answer.AuthenticationResult?.IdToken;
  if (!idToken) throw new Error(`federated sign-in answered ${response.status}: ${JSON.stringify(answer)}`);
  const claims = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; 'cognito:username': string };
  return { email, password: '', idToken, sub: claims.sub, username: claims['cognito:username'] };
}
