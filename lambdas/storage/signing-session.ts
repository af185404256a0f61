// The credentials that sign the URLs a function hands out, and when they end.
//
// A URL signed with temporary credentials dies with them: "If you created a presigned URL using a temporary token, the
// URL expires when the token expires, even if the URL was created with a later expiration time" (Amazon S3 user
// guide, "Using presigned URLs", read 2026-11). A Lambda function's own credentials are a role session whose end it is
// never told: the runtime sets only "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN – The access keys
// obtained from the function's execution role" (Lambda developer guide, "Defined runtime environment variables", read
// 2026-11), and "Services that assume a role, such as the AWS Lambda execution role, don't necessarily comply with the
// role's session duration settings" (AWS Knowledge Center, "Why is my presigned URL for an Amazon S3 bucket expiring
// before the expiration time that I specified?", read 2026-11). A URL signed with them can die at any moment.
//
// So a function signs with a session whose end it knows: it asks STS (AssumeRole) for one of the stage's URL-signer
// role (URL_SIGNER_ENV.role), narrowed by a session policy to this function's own S3 access (URL_SIGNER_ENV.policy),
// for SIGNING_SESSION_SECONDS ("Role chaining limits your AWS CLI or AWS API role session to a maximum of one hour",
// STS API reference, AssumeRole DurationSeconds), keeps it while it has RENEW_MARGIN_MS left, and signs no URL for
// longer than it has left (presign.ts). STS answers the session's Expiration; the local twin's STS does the same
// (lib/local/sts.ts), and its S3 refuses a session's URLs once it has expired. Without a signer role (scripts, unit
// tests) the environment's credentials sign, capped by AWS_CREDENTIAL_EXPIRATION when it is set.
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import { log } from '../core/log.js';
import { Sha256 } from './sha256.js';

export const URL_SIGNER_ENV = {
  /** The ARN of the stage's URL-signer role. */
  role: 'URL_SIGNER_ROLE_ARN',
  /** The session policy (JSON) that narrows a signing session to the function's own S3 access. */
  policy: 'URL_SIGNER_SESSION_POLICY',
} as const;

export const SIGNING_SESSION_SECONDS = 3600;
/** A session is renewed when it has less than this left: a URL asked for up to this long gets its full time. */
const RENEW_MARGIN_MS = 30 * 60_000;
const STS_TIMEOUT_MS = 5_000;

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When the session ends; unknown for long-lived keys. */
  expiration?: Date;
}

const environmentCredentials = fromEnv();
let session: Promise<SigningCredentials> | undefined;

/** The credentials to sign a URL with now (a credential provider for the signer). */
export async function signingCredentials(env: NodeJS.ProcessEnv = process.env): Promise<SigningCredentials> {
  const roleArn = env[URL_SIGNER_ENV.role];
  if (!roleArn) return environmentCredentials();
  const current = session && (await session.catch(() => undefined));
  if (current?.expiration && current.expiration.getTime() - Date.now() > RENEW_MARGIN_MS) return current;
  session = assumeSignerRole(roleArn, env[URL_SIGNER_ENV.policy], env);
  try {
    return await session;
  } catch (error) {
    session = undefined;
    throw error;
  }
}

/** STS AssumeRole (the Query API, signed here: the STS client is about 60 KB of every bundle that hands out URLs). */
async function assumeSignerRole(roleArn: string, policy: string | undefined, env: NodeJS.ProcessEnv): Promise<SigningCredentials> {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('Missing configuration: environment variable AWS_REGION is not set');
  const endpoint = new URL(env.AWS_ENDPOINT_URL_STS ?? `https://sts.${region}.amazonaws.com/`);
  const body = new URLSearchParams({
    Action: 'AssumeRole',
    Version: '2011-06-15',
    RoleArn: roleArn,
    // [\w+=,.@-]{2,64}: the function, to find its sessions in CloudTrail.
    RoleSessionName: `url-signer-${(env.AWS_LAMBDA_FUNCTION_NAME ?? 'function').replace(/[^\w+=,.@-]/g, '-')}`.slice(0, 64),
    DurationSeconds: String(SIGNING_SESSION_SECONDS),
    ...(policy ? { Policy: policy } : {}),
  }).toString();
  const signer = new SignatureV4({ service: 'sts', region, credentials: environmentCredentials, sha256: Sha256 });
  const signed = await signer.sign({
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    path: endpoint.pathname,
    headers: { host: endpoint.host, 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
  });
  const response = await fetch(endpoint, { method: 'POST', headers: signed.headers, body, signal: AbortSignal.timeout(STS_TIMEOUT_MS) });
  const text = await response.text();
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1];
  if (!response.ok) {
    const code = field('Code') ?? 'STSServiceException';
    log.error('the URL-signing session could not be started', { code, status: response.status });
    throw Object.assign(new Error(`AssumeRole answered ${response.status} ${code}`), { name: code, $metadata: { httpStatusCode: response.status } });
  }
  const [accessKeyId, secretAccessKey, sessionToken, expiration] = ['AccessKeyId', 'SecretAccessKey', 'SessionToken', 'Expiration'].map(field);
  if (!accessKeyId || !secretAccessKey || !sessionToken || !expiration) throw new Error('AssumeRole answered without credentials');
  return { accessKeyId, secretAccessKey, sessionToken: xmlText(sessionToken), expiration: new Date(expiration) };
}

/** A session token may carry XML entities (`+` and `/` never do, but `&` could in another token format). */
const xmlText = (raw: string) => raw.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
