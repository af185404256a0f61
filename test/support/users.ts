// Real users of the local twin's cognito-local: signed up, confirmed with the code from the mailbox, signed in.
import { randomUUID } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { latestCode } from '../../lib/local/cognito-local.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import type { TwinInfo } from './global-twin.js';

export interface TestUser {
  email: string;
  password: string;
  idToken: string;
  /** The user id (the token's sub). */
  sub: string;
}

export const TEST_PASSWORD = 'Correct-horse-7';

export function cognitoClient(twin: TwinInfo): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint: twin.cognitoEndpoint, region: twin.region, credentials: LOCAL_CREDENTIALS });
}

export function uniqueEmail(label = 'seller'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

export async function createUser(twin: TwinInfo, email = uniqueEmail(), password = TEST_PASSWORD): Promise<TestUser> {
  const cognito = cognitoClient(twin);
  await cognito.send(new SignUpCommand({ ClientId: twin.userPoolClientId, Username: email, Password: password, UserAttributes: [{ Name: 'email', Value: email }] }));
  const code = await waitForCode(twin.mailboxFile, email);
  await cognito.send(new ConfirmSignUpCommand({ ClientId: twin.userPoolClientId, Username: email, ConfirmationCode: code }));
  return signIn(twin, email, password);
}

export async function signIn(twin: TwinInfo, email: string, password = TEST_PASSWORD): Promise<TestUser> {
  const { AuthenticationResult } = await cognitoClient(twin).send(
    new InitiateAuthCommand({ ClientId: twin.userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  const idToken = AuthenticationResult?.IdToken;
  if (!idToken) throw new Error(`No ID token for ${email}`);
  const { sub } = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return { email, password, idToken, sub };
}

/** The confirmation code the twin delivered to this address (it reaches the mailbox file a moment after sign-up). */
export async function waitForCode(mailboxFile: string, email: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const code = latestCode(mailboxFile, email);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No code for ${email} in ${mailboxFile}`);
}
