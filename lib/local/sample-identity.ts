// Who the sample events of `npm run invoke` / `npm run event` come from.
/** The caller of sample events; `npm run invoke -- --as <email>` replaces it with a real cognito-local user. */
export const SAMPLE_USER = { sub: '6f1c2e0d-5b8a-4c1e-9f3a-2b7d4e6a8c10', email: 'me@example.com' } as const;

/** The claims API Gateway's JWT authorizer hands on for a Cognito ID token (all strings, as it does). */
export function sampleClaims(user: { sub: string; email: string } = SAMPLE_USER): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: user.sub,
    email: user.email,
    email_verified: 'true',
    'cognito:username': user.sub,
    aud: 'local-client-id',
    iss: 'http://localhost:9229/local_pool',
    token_use: 'id',
    auth_time: String(now),
    iat: String(now),
    exp: String(now + 3600),
  };
}
