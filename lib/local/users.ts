// Real users of the local twin's cognito-local: signed up, confirmed with the code the twin delivered to the mailbox,
// signed in with USER_PASSWORD_AUTH. Tests, `npm run invoke -- --as` and the demo seed all get their tokens here.
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  ListUsersCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { latestCode } from './cognito-local.js';
import { LOCAL_CREDENTIALS } from './s3-local.js';
import type { TwinInfo } from './twin.js';

export interface LocalUser {
  email: string;
  password: string;
  idToken: string;
  /** The user id (the token's sub). */
  sub: string;
}

/** The password of users the tools create when none is given (it meets the pool's policy). */
export const DEFAULT_PASSWORD = 'Correct-horse-7';

type TwinAuth = Pick<TwinInfo, 'cognitoEndpoint' | 'region' | 'userPoolClientId' | 'mailboxFile'>;

export function cognitoClient(twin: TwinAuth): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint: twin.cognitoEndpoint, region: twin.region, credentials: LOCAL_CREDENTIALS });
}

export async function createUser(twin: TwinAuth, email: string, password = DEFAULT_PASSWORD): Promise<LocalUser> {
  const cognito = cognitoClient(twin);
  await cognito.send(new SignUpCommand({ ClientId: twin.userPoolClientId, Username: email, Password: password, UserAttributes: [{ Name: 'email', Value: email }] }));
  const code = await waitForCode(twin.mailboxFile, email);
  await cognito.send(new ConfirmSignUpCommand({ ClientId: twin.userPoolClientId, Username: email, ConfirmationCode: code }));
  return signIn(twin, email, password);
}

export async function signIn(twin: TwinAuth, email: string, password = DEFAULT_PASSWORD): Promise<LocalUser> {
  const { AuthenticationResult } = await cognitoClient(twin).send(
    new InitiateAuthCommand({ ClientId: twin.userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  const idToken = AuthenticationResult?.IdToken;
  if (!idToken) throw new Error(`No ID token for ${email}`);
  const { sub } = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return { email, password, idToken, sub };
}

/** Signs the user in, creating (and confirming) the account first when the pool does not know the address. */
export async function signInOrCreate(twin: TwinAuth & Pick<TwinInfo, 'userPoolId'>, email: string, password = DEFAULT_PASSWORD): Promise<LocalUser & { created: boolean }> {
  // Looked up first rather than tried: a failed sign-in is an error line in the emulator's log.
  const { Users } = await cognitoClient(twin).send(new ListUsersCommand({ UserPoolId: twin.userPoolId, Filter: `email = "${email.replace(/"/g, '')}"` }));
  const existing = Users?.find((user) => user.Attributes?.some(({ Name, Value }) => Name === 'email' && Value === email));
  if (!existing) return { ...(await createUser(twin, email, password)), created: true };
  if (existing.UserStatus === 'UNCONFIRMED') {
    const code = await waitForCode(twin.mailboxFile, email);
    await cognitoClient(twin).send(new ConfirmSignUpCommand({ ClientId: twin.userPoolClientId, Username: email, ConfirmationCode: code }));
  }
  try {
    return { ...(await signIn(twin, email, password)), created: false };
  } catch (error) {
    throw new Error(`${email} exists on this twin but could not sign in with the password given (${(error as Error).message})`);
  }
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
