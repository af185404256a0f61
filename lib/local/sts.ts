// STS on the local twin, for the one call the functions make: AssumeRole of the stage's URL-signer role, which
// answers a session whose end the caller knows (lambdas/storage/signing-session.ts). A session keeps the calling
// function's key and secret (so the twin's S3 still checks that function's grants, lib/local/grants.ts) and gets a
// session token of its own that carries when it ends, sealed with an HMAC of that secret; the twin's S3 accepts a
// session's requests until then and answers 400 ExpiredToken after, as S3 does ("ExpiredToken:
// The provided token has expired.", Amazon S3 API reference, Error responses, read 2026-11). A session lasts the
// DurationSeconds asked (at most an hour, role chaining's limit), or MODELLOOP_LOCAL_SESSION_SECONDS when that is
// shorter: a test's clock, which lets it watch a session end.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkSigV4, signedRequestOf, type CredentialsOf, type LocalCredentials } from './sigv4.js';

/** Sets the twin's longest session (seconds), below STS's own 15 minutes if need be: for tests. */
export const LOCAL_SESSION_SECONDS_ENV = 'MODELLOOP_LOCAL_SESSION_SECONDS';
/** "Role chaining limits your AWS CLI or AWS API role session to a maximum of one hour." (AssumeRole, DurationSeconds) */
const ROLE_CHAINING_MAX_SECONDS = 3600;
const MIN_DURATION_SECONDS = 900;

/** The prefix of every STS session token, and of the twin's. */
const TOKEN_PREFIX = 'IQoJb3JpZ2luX2Vj';

/** The twin's credentials: a role session's, whose token length the sessions it mints keep (as long as the cloud's). */
type SessionCredentials = LocalCredentials & { sessionToken: string };

/** A session token as long as the twin's own that says when it ends, sealed with the twin's secret. */
export function mintSessionToken(credentials: SessionCredentials, expiresAt: Date): string {
  const claim = Buffer.from(JSON.stringify({ exp: expiresAt.getTime(), nonce: randomBytes(9).toString('base64') })).toString('base64url');
  const seal = createHmac('sha256', credentials.secretAccessKey).update(claim).digest('base64url');
  const token = `${TOKEN_PREFIX}.${claim}.${seal}.`;
  return token + 'A'.repeat(Math.max(0, credentials.sessionToken.length - token.length));
}

/** When a session token the twin minted ends; undefined for any other token. */
export function sessionTokenExpiry(credentials: LocalCredentials, token: string): Date | undefined {
  const [prefix, claim, seal] = token.split('.');
  if (prefix !== TOKEN_PREFIX || !claim || !seal) return undefined;
  const expected = createHmac('sha256', credentials.secretAccessKey).update(claim).digest('base64url');
  if (expected.length !== seal.length || !timingSafeEqual(Buffer.from(expected), Buffer.from(seal))) return undefined;
  // Sealed by the twin, so its claim is the twin's JSON.
  const exp = Number((JSON.parse(Buffer.from(claim, 'base64url').toString('utf8')) as { exp?: unknown }).exp);
  return Number.isFinite(exp) ? new Date(exp) : undefined;
}

export interface LocalSts {
  /** Mount this on the gateway. */
  mount: { prefix: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> };
}

/** `credentialsOf`: every credentials the twin knows (TwinAccess.credentialsOf); each may assume the signer role. */
export function startLocalSts(options: { path: string; credentialsOf: CredentialsOf; env?: NodeJS.ProcessEnv }): LocalSts {
  const longest = Number((options.env ?? process.env)[LOCAL_SESSION_SECONDS_ENV]) || ROLE_CHAINING_MAX_SECONDS;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await signedRequestOf(req);
    // As IAM does: only requests signed with credentials the twin knows (its own or a function's).
    const signed = await checkSigV4(request, options.credentialsOf);
    if ('refusal' in signed) return stsError(res, 403, 'InvalidClientTokenId', signed.refusal.message);
    const caller = options.credentialsOf(signed.accessKeyId)!;
    if (!caller.sessionToken) return stsError(res, 403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
    const credentials = { ...caller, sessionToken: caller.sessionToken };
    const params = new URLSearchParams(request.body.toString('utf8'));
    if (params.get('Action') !== 'AssumeRole') return stsError(res, 400, 'InvalidAction', `Could not find operation ${params.get('Action')} for version 2011-06-15`);
    const duration = Number(params.get('DurationSeconds') ?? ROLE_CHAINING_MAX_SECONDS);
    if (!Number.isInteger(duration) || duration < MIN_DURATION_SECONDS || duration > ROLE_CHAINING_MAX_SECONDS) {
      return stsError(res, 400, 'ValidationError', 'The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.');
    }
    if (!params.get('RoleArn') || !params.get('RoleSessionName')) return stsError(res, 400, 'ValidationError', 'RoleArn and RoleSessionName are required');
    const expiresAt = new Date(Date.now() + Math.min(duration, longest) * 1000);
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(
      `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials>` +
        `<AccessKeyId>${credentials.accessKeyId}</AccessKeyId><SecretAccessKey>${credentials.secretAccessKey}</SecretAccessKey>` +
        `<SessionToken>${mintSessionToken(credentials, expiresAt)}</SessionToken><Expiration>${expiresAt.toISOString()}</Expiration>` +
        `</Credentials><AssumedRoleUser><Arn>${params.get('RoleArn')}/${params.get('RoleSessionName')}</Arn></AssumedRoleUser></AssumeRoleResult></AssumeRoleResponse>`,
    );
  }
  return { mount: { prefix: options.path, handle } };
}

function stsError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'text/xml' });
  res.end(`<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error></ErrorResponse>`);
}
