// The one verifier of Cognito ID tokens: the local gateway (as API Gateway's JWT authorizer) and the WebSocket
// $connect authorizer both use it. Issuer, audience and JWKS address are configuration: the user pool's in the cloud,
// cognito-local's on the local twin; the code is the same on both hosts.
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { requireEnv } from './config.js';

export interface IdTokenVerifierConfig {
  /** `iss` of the pool's tokens; the keys are read from `<issuer>/.well-known/jwks.json` unless jwksUri says otherwise. */
  issuer: string;
  /** The web client id: the `aud` of its ID tokens. */
  audience: string;
  jwksUri?: string;
}

export interface IdTokenVerifier {
  /** The verified claims; throws when the signature, issuer, audience, expiry or token use is wrong. */
  verify(token: string): Promise<JwtPayload>;
}

const JWKS_FETCH_TIMEOUT_MS = 3_000;

// aws-jwt-verify's own fetcher speaks https only; cognito-local serves its keys over http.
const jwksFetcher = {
  fetch: async (uri: string): Promise<ArrayBuffer> => {
    const response = await fetch(uri, { signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`JWKS request answered ${response.status}`);
    return response.arrayBuffer();
  },
};

export function createIdTokenVerifier(config: IdTokenVerifierConfig): IdTokenVerifier {
  return JwtRsaVerifier.create(
    {
      issuer: config.issuer,
      audience: config.audience,
      jwksUri: config.jwksUri ?? `${config.issuer}/.well-known/jwks.json`,
      // Only ID tokens identify a user here: an access token, or a token that doesn't say what it is, is refused.
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'id') throw new Error('Not an ID token');
      },
    },
    { jwksCache: new SimpleJwksCache({ fetcher: jwksFetcher }) },
  );
}

/** The environment variables a function verifying ID tokens is configured with. */
export const ID_TOKEN_ENV = {
  issuer: 'ID_TOKEN_ISSUER',
  audience: 'ID_TOKEN_AUDIENCE',
  jwksUri: 'ID_TOKEN_JWKS_URI',
} as const;

/** The verifier configured from the environment (ID_TOKEN_ISSUER, ID_TOKEN_AUDIENCE, optional ID_TOKEN_JWKS_URI). */
export function idTokenVerifierFromEnv(env: NodeJS.ProcessEnv = process.env): IdTokenVerifier {
  return createIdTokenVerifier({
    issuer: requireEnv(ID_TOKEN_ENV.issuer, env),
    audience: requireEnv(ID_TOKEN_ENV.audience, env),
    jwksUri: env[ID_TOKEN_ENV.jwksUri] || undefined,
  });
}
