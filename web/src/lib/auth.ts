// Amplify Auth, configured once from the runtime config. Everything that talks to Cognito goes through here, so the
// two hosts differ only in the settings below: cognito-local (USER_PASSWORD_AUTH, our refresher) or Cognito (SRP).
import type { RuntimeConfig } from '@contracts/api';
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  fetchAuthSession,
  fetchMFAPreference,
  resendSignUpCode,
  resetPassword,
  setUpTOTP,
  signIn,
  signInWithRedirect,
  signOut,
  signUp,
  updateMFAPreference,
  verifyTOTPSetup,
  type SignInOutput,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { Hub } from 'aws-amplify/utils';
import { createRefreshTokenAuthRefresher } from './cognito-local-refresh';
import { loadRuntimeConfig } from './runtime-config';
import { notifySessionChange } from './session-hint';

export interface SessionUser {
  userId: string;
  email: string;
  /** Seconds since the epoch at which the ID token expires. */
  expiresAt: number;
}

let bootPromise: Promise<RuntimeConfig> | undefined;

/** Loads config.json and configures Amplify Auth with it, once per page. */
export function bootAuth(): Promise<RuntimeConfig> {
  bootPromise ??= loadRuntimeConfig()
    .then((config) => {
      configureAmplify(config);
      return config;
    })
    .catch((error: unknown) => {
      bootPromise = undefined;
      throw error;
    });
  return bootPromise;
}

function configureAmplify(config: RuntimeConfig): void {
  const oauth = config.oauth;
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.cognitoEndpoint ? { userPoolEndpoint: config.cognitoEndpoint } : {}),
        signUpVerificationMethod: 'code',
        loginWith: {
          email: true,
          ...(oauth
            ? {
                oauth: {
                  domain: oauth.domain,
                  scopes: ['openid', 'email', 'profile'],
                  redirectSignIn: [oauth.redirectUrl],
                  redirectSignOut: [oauth.redirectUrl],
                  responseType: 'code' as const,
                },
              }
            : {}),
        },
      },
    },
  });
  if (config.host === 'local' && config.cognitoEndpoint) {
    cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokenRefresher(
      createRefreshTokenAuthRefresher(config.cognitoEndpoint),
    );
  }
}

function authFlowType(config: RuntimeConfig) {
  return config.host === 'local' ? ('USER_PASSWORD_AUTH' as const) : ('USER_SRP_AUTH' as const);
}

/** The signed-in user from the stored tokens (refreshed when expired), or null when there is no session. */
export async function currentSessionUser(options: { forceRefresh?: boolean } = {}): Promise<SessionUser | null> {
  await bootAuth();
  try {
    const { tokens } = await fetchAuthSession(options);
    const idToken = tokens?.idToken;
    if (!idToken) return null;
    const { sub, email, exp } = idToken.payload;
    if (typeof sub !== 'string') return null;
    return { userId: sub, email: typeof email === 'string' ? email : '', expiresAt: exp ?? 0 };
  } catch {
    return null;
  }
}

/** The bearer token of API calls: the Cognito ID token. */
export async function idToken(options: { forceRefresh?: boolean } = {}): Promise<string | null> {
  await bootAuth();
  const { tokens } = await fetchAuthSession(options);
  return tokens?.idToken?.toString() ?? null;
}

export type SignInStep = SignInOutput['nextStep']['signInStep'];

/** What a failed sign-in says when the e-mail is unknown or the password wrong: the same, so it reveals no account. */
export const INCORRECT_CREDENTIALS = 'Incorrect email or password';

/**
 * The cloud pool (PreventUserExistenceErrors) answers both cases with NotAuthorizedException "Incorrect username or
 * password."; cognito-local answers NotAuthorizedException "User not authorized" (unknown e-mail) or
 * InvalidPasswordException "Invalid password" (wrong password). Both hosts
 * show one message. Other refusals (a disabled user, too many attempts) keep their own text.
 */
export function signInFailureMessage(error: unknown): string | undefined {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : '';
  if (name === 'UserNotFoundException' || name === 'InvalidPasswordException') return INCORRECT_CREDENTIALS;
  if (name === 'NotAuthorizedException' && /incorrect username or password|invalid password|user not authorized/i.test(message)) return INCORRECT_CREDENTIALS;
  return undefined;
}

export async function signInWithPassword(email: string, password: string): Promise<SignInOutput> {
  const config = await bootAuth();
  const output = await signIn({ username: email, password, options: { authFlowType: authFlowType(config) } }).catch((error: unknown) => {
    const message = signInFailureMessage(error);
    throw message ? new Error(message) : error;
  });
  if (output.isSignedIn) notifySessionChange();
  return output;
}

export async function submitTotpCode(code: string): Promise<SignInOutput> {
  await bootAuth();
  const output = await confirmSignIn({ challengeResponse: code });
  if (output.isSignedIn) notifySessionChange();
  return output;
}

export async function registerAccount(email: string, password: string) {
  await bootAuth();
  return signUp({ username: email, password, options: { userAttributes: { email } } });
}

export async function confirmAccount(email: string, code: string) {
  await bootAuth();
  return confirmSignUp({ username: email, confirmationCode: code });
}

export async function resendConfirmationCode(email: string) {
  await bootAuth();
  return resendSignUpCode({ username: email });
}

export async function requestPasswordReset(email: string) {
  await bootAuth();
  return resetPassword({ username: email });
}

export async function setNewPassword(email: string, code: string, newPassword: string) {
  await bootAuth();
  return confirmResetPassword({ username: email, confirmationCode: code, newPassword });
}

/** Starts the hosted-UI redirect for the configured social provider; throws with a readable reason when there is none. */
export async function signInWithSocialProvider(): Promise<void> {
  const config = await bootAuth();
  const provider = config.oauth?.providers[0];
  if (!config.oauth || !provider) {
    throw new Error(
      config.host === 'local'
        ? 'Social sign-in is not available on the local twin. Sign in with your email and password.'
        : 'No social sign-in provider is configured for this deployment. Sign in with your email and password.',
    );
  }
  const known = ['Google', 'Facebook', 'Amazon', 'Apple'] as const;
  const match = known.find((name) => name.toLowerCase() === provider.toLowerCase());
  await signInWithRedirect({ provider: match ?? { custom: provider } });
}

/** Ends the session in this browser. Not global: cognito-local has no GlobalSignOut. */
export async function signOutHere(): Promise<void> {
  await bootAuth();
  try {
    await signOut();
  } finally {
    notifySessionChange();
  }
}

export async function totpEnabled(): Promise<boolean> {
  await bootAuth();
  const preference = await fetchMFAPreference();
  return preference.enabled?.includes('TOTP') ?? false;
}

/** Starts TOTP enrolment: the secret and the otpauth:// URI to show as a QR code. */
export async function beginTotpSetup(email: string): Promise<{ secret: string; uri: string }> {
  await bootAuth();
  const details = await setUpTOTP();
  return { secret: details.sharedSecret, uri: details.getSetupUri('ModelLoop', email).toString() };
}

export async function completeTotpSetup(code: string): Promise<void> {
  await bootAuth();
  await verifyTOTPSetup({ code });
  await updateMFAPreference({ totp: 'PREFERRED' });
}

export async function disableTotp(): Promise<void> {
  await bootAuth();
  await updateMFAPreference({ totp: 'DISABLED' });
}

export type AuthEvent = 'signedIn' | 'signedOut' | 'tokenRefreshFailed' | 'redirectFailed';

/** Session changes published by Amplify (including a completed or failed social redirect). */
export function onAuthEvent(listener: (event: AuthEvent, message?: string) => void): () => void {
  return Hub.listen('auth', ({ payload }) => {
    switch (payload.event) {
      case 'signedIn':
      case 'signInWithRedirect':
        notifySessionChange();
        listener('signedIn');
        break;
      case 'signedOut':
        listener('signedOut');
        break;
      case 'tokenRefresh_failure':
        listener('tokenRefreshFailed');
        break;
      case 'signInWithRedirect_failure': {
        const error = (payload.data as { error?: { message?: string } } | undefined)?.error;
        listener('redirectFailed', error?.message);
        break;
      }
      default:
        break;
    }
  });
}
