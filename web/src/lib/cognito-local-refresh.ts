// cognito-local has no GetTokensFromRefreshToken (Amplify 6.22's refresh call), so on the local twin Amplify's token
// refresher is replaced by this one, which renews the tokens with InitiateAuth REFRESH_TOKEN_AUTH, which cognito-local answers.
import { decodeJWT } from 'aws-amplify/auth';
import type { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';

type TokenRefresher = Parameters<typeof cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokenRefresher>[0];

const FIRST_RETRY_DELAY_MS = 200;
const MAX_ATTEMPTS = 4;

class CognitoServiceError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

async function initiateRefresh(endpoint: string, clientId: string, refreshToken: string) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: clientId,
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    __type?: string;
    message?: string;
    AuthenticationResult?: { AccessToken?: string; IdToken?: string; RefreshToken?: string };
  };
  if (!response.ok) {
    const name = (body.__type ?? 'InternalErrorException').split('#').pop() ?? 'InternalErrorException';
    throw new CognitoServiceError(name, body.message ?? `Token refresh failed (${response.status})`);
  }
  return body.AuthenticationResult ?? {};
}

const isRetryable = (error: unknown) => !(error instanceof CognitoServiceError) || error.name === 'InternalErrorException';

export function createRefreshTokenAuthRefresher(endpoint: string): TokenRefresher {
  return async ({ tokens, authConfig, username }) => {
    const clientId = authConfig?.Cognito?.userPoolClientId;
    if (!clientId || !tokens.refreshToken) {
      throw new CognitoServiceError('NotAuthorizedException', 'No refresh token is stored; sign in again');
    }
    let delay = FIRST_RETRY_DELAY_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await initiateRefresh(endpoint, clientId, tokens.refreshToken);
        if (!result.AccessToken) throw new CognitoServiceError('NotAuthorizedException', 'The refresh answer held no token');
        const accessToken = decodeJWT(result.AccessToken);
        const issuedAt = accessToken.payload.iat ?? Math.floor(Date.now() / 1000);
        return {
          accessToken,
          idToken: result.IdToken ? decodeJWT(result.IdToken) : undefined,
          clockDrift: issuedAt * 1000 - Date.now(),
          refreshToken: result.RefreshToken ?? tokens.refreshToken,
          username,
        };
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) {
          // Amplify's orchestrator needs a named error to decide whether the session is gone.
          if (error instanceof CognitoServiceError) throw error;
          throw new CognitoServiceError('NetworkError', error instanceof Error ? error.message : String(error));
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay *= 2;
      }
    }
  };
}
