// cognito-local: the Cognito user pool API on the local filesystem. The user pool and app client are created on the
// first start with the cloud pool's settings (e-mail sign-in, e-mail verification, optional TOTP MFA, the password
// policy, enforced by the server) and their ids
// kept under the data directory, so a second start finds the same users.
// Codes it would e-mail are printed to the terminal and appended to a mailbox file (JSON lines).
// cognito-local checks no signatures, so it listens on a loopback port of its own behind a front on the pool's port
// (the endpoint everyone uses): as Cognito does, the front lets the operations a user or app makes without AWS
// credentials through (sign-up, sign-in, the token-authorized ones: PUBLIC_OPERATIONS), and answers every other
// (the Admin* operations, ListUsers, the pool's management) only when signed with the twin's credentials or a
// function's, and for a function only within its grants (grants.ts userPoolRefusal).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolCommand,
  ListUserPoolsCommand,
  SetUserPoolMfaConfigCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { PASSWORD_POLICY, PASSWORD_RULES, passwordRefusal } from '../../lambdas/contracts/password-policy.js';
import { forward, readWhole, startFront } from './forward.js';
import { userPoolRefusal, type TwinAccess } from './grants.js';
import { freePort, startChild, waitFor, type Child } from './processes.js';
import { checkSigV4, sendSignatureRefusal } from './sigv4.js';
import { LOCAL_CREDENTIALS } from './s3-local.js';

/**
 * cognito-local stores a pool's password policy but checks none: the server (cognito-local-server.mjs) refuses a
 * password that breaks one of these rules wherever one is set (sign-up, reset, change, admin set), with Cognito's
 * InvalidPasswordException and its wording. The rules are the one policy's (lambdas/contracts/password-policy.ts).
 */
const PASSWORD_RULES_ENV = 'MODELLOOP_PASSWORD_RULES';
const passwordRulesForServer = () =>
  JSON.stringify(PASSWORD_RULES.map((rule) => ({ source: rule.pattern.source, flags: rule.pattern.flags, message: passwordRefusal(rule) })));

/**
 * The twin's app client flows: the cloud client's (SRP and refresh, lib/constructs/auth.ts) plus USER_PASSWORD_AUTH,
 * the one gap: cognito-local has no USER_SRP_AUTH (InitiateAuth answers it as unsupported), so the web app signs in
 * on the twin with USER_PASSWORD_AUTH (web/src/lib/auth.ts authFlowType) and SRP is exercised only in the cloud.
 * test/infra/auth-flows.test.ts holds this list to the synthesized client's flows plus that one gap.
 */
export const TWIN_AUTH_FLOWS = ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] as const;

/** The flow the twin adds to the cloud's, because cognito-local cannot do SRP. */
export const TWIN_ONLY_AUTH_FLOWS = ['ALLOW_USER_PASSWORD_AUTH'] as const;

/**
 * The operations Cognito answers without AWS credentials: unauthenticated or authorized by the user's tokens (the
 * operations the SDK's model marks optional-auth: @aws-sdk/client-cognito-identity-provider's httpAuthSchemeProvider,
 * read November 2026; test/unit/cognito-front.test.ts holds the two lists equal), and the twin's own stand-in for the
 * hosted UI's federated sign-in (TwinFederatedSignIn). Every other operation needs an IAM-signed request.
 */
export const PUBLIC_OPERATIONS = new Set([
  'AssociateSoftwareToken',
  'ChangePassword',
  'CompleteWebAuthnRegistration',
  'ConfirmDevice',
  'ConfirmForgotPassword',
  'ConfirmSignUp',
  'DeleteUser',
  'DeleteUserAttributes',
  'DeleteWebAuthnCredential',
  'ForgetDevice',
  'ForgotPassword',
  'GetDevice',
  'GetTokensFromRefreshToken',
  'GetUser',
  'GetUserAttributeVerificationCode',
  'GetUserAuthFactors',
  'GlobalSignOut',
  'InitiateAuth',
  'ListDevices',
  'ListUserSessions',
  'ListWebAuthnCredentials',
  'ResendConfirmationCode',
  'RespondToAuthChallenge',
  'RevokeToken',
  'RevokeUserSession',
  'SetUserMFAPreference',
  'SetUserSettings',
  'SignUp',
  'StartWebAuthnRegistration',
  'UpdateAuthEventFeedback',
  'UpdateDeviceStatus',
  'UpdateUserAttributes',
  'VerifySoftwareToken',
  'VerifyUserAttribute',
]);
/** The twin's stand-in for the hosted UI's sign-in with Google (cognito-local-server.mjs): no credentials, as that page needs none. */
const TWIN_PUBLIC_OPERATIONS = new Set(['TwinFederatedSignIn']);
const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
/** cognito-local's issuer domain (its tokens' `iss`): the front's address, not its own port. */
const ISSUER_DOMAIN_ENV = 'MODELLOOP_COGNITO_ISSUER_DOMAIN';

export interface CognitoLocal {
  endpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  issuer: string;
  jwksUri: string;
  mailboxFile: string;
  child: Child;
}

export interface MailboxEntry {
  email: string;
  code: string;
  at: string;
}

interface PoolIds {
  userPoolId: string;
  userPoolClientId: string;
}

export async function startCognitoLocal(options: {
  port: number;
  dataDir: string;
  onLine: (line: string) => void;
  onCode: (entry: MailboxEntry) => void;
  /** The credentials the IAM-authorized operations accept and what each may do; its resources get the pool's id. */
  access: TwinAccess;
}): Promise<CognitoLocal> {
  mkdirSync(options.dataDir, { recursive: true });
  const mailboxFile = join(options.dataDir, 'mailbox.jsonl');
  const endpoint = `http://127.0.0.1:${options.port}`;
  const ownPort = await freePort();
  const child = startChild(process.execPath, [join(import.meta.dirname, 'cognito-local-server.mjs')], {
    name: 'cognito',
    cwd: options.dataDir,
    env: {
      ...process.env,
      PORT: String(ownPort),
      HOST: '127.0.0.1',
      [ISSUER_DOMAIN_ENV]: endpoint,
      DEBUG: '',
      NODE_NO_WARNINGS: '1',
      [PASSWORD_RULES_ENV]: passwordRulesForServer(),
    },
    onLine: (line) => {
      const delivery = readCodeDelivery(line);
      if (!delivery) return options.onLine(line);
      appendFileSync(mailboxFile, `${JSON.stringify(delivery)}\n`);
      options.onCode(delivery);
    },
  });
  const front = await startFront(options.port, (req, res) => checkAndForward(req, res, ownPort, options.access), options.onLine);
  const stop = async () => {
    await front.close();
    await child.stop();
  };
  const client = new CognitoIdentityProviderClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    await waitFor('cognito-local', () => client.send(new ListUserPoolsCommand({ MaxResults: 1 })));
    const ids = await ensurePool(client, join(options.dataDir, 'pool.json'));
    options.access.resources.userPoolId = ids.userPoolId;
    const issuer = `${endpoint}/${ids.userPoolId}`;
    return { endpoint, ...ids, issuer, jwksUri: `${issuer}/.well-known/jwks.json`, mailboxFile, child: { process: child.process, stop } };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
}

/** The front: the public operations and the token endpoints as they are, the others signed and within the signer's grants. */
async function checkAndForward(req: IncomingMessage, res: ServerResponse, ownPort: number, access: TwinAccess): Promise<void> {
  const body = await readWhole(req);
  const target = String(req.headers['x-amz-target'] ?? '');
  const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : undefined;
  if (req.method === 'POST' && operation && !PUBLIC_OPERATIONS.has(operation) && !TWIN_PUBLIC_OPERATIONS.has(operation)) {
    const signed = await checkSigV4({ method: 'POST', url: req.url ?? '/', headers: req.headers, body }, access.credentialsOf);
    if ('refusal' in signed) return sendSignatureRefusal(res, signed.refusal, 'application/x-amz-json-1.1');
    let request: Record<string, unknown> = {};
    try {
      request = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      // cognito-local answers a body that is not JSON
    }
    const denied = userPoolRefusal(access.principal(signed.accessKeyId)!, operation, request, access.resources);
    if (denied) {
      res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': 'AccessDeniedException' });
      return void res.end(JSON.stringify({ __type: 'AccessDeniedException', message: denied.message }));
    }
  }
  const answer = await forward(ownPort, req, body);
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

async function ensurePool(client: CognitoIdentityProviderClient, idsFile: string): Promise<PoolIds> {
  if (existsSync(idsFile)) {
    const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as PoolIds;
    await client.send(new DescribeUserPoolCommand({ UserPoolId: ids.userPoolId }));
    return ids;
  }
  const { UserPool } = await client.send(
    new CreateUserPoolCommand({
      PoolName: 'modelloop-local',
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      MfaConfiguration: 'OPTIONAL',
      Policies: {
        PasswordPolicy: {
          MinimumLength: PASSWORD_POLICY.minLength,
          RequireLowercase: PASSWORD_POLICY.requireLowercase,
          RequireUppercase: PASSWORD_POLICY.requireUppercase,
          RequireNumbers: PASSWORD_POLICY.requireDigits,
          RequireSymbols: PASSWORD_POLICY.requireSymbols,
        },
      },
    }),
  );
  const userPoolId = UserPool!.Id!;
  await client.send(
    new SetUserPoolMfaConfigCommand({
      UserPoolId: userPoolId,
      MfaConfiguration: 'OPTIONAL',
      SoftwareTokenMfaConfiguration: { Enabled: true },
    }),
  );
  const { UserPoolClient } = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'modelloop-web',
      ExplicitAuthFlows: [...TWIN_AUTH_FLOWS],
    }),
  );
  const ids = { userPoolId, userPoolClientId: UserPoolClient!.ClientId! };
  writeFileSync(idsFile, JSON.stringify(ids, null, 2));
  return ids;
}

/** A code cognito-local would have e-mailed (see cognito-local-server.mjs). */
function readCodeDelivery(line: string): MailboxEntry | undefined {
  if (!line.startsWith('{"delivery"')) return undefined;
  const { delivery } = JSON.parse(line) as { delivery: { email: string; code: string } };
  return { email: delivery.email, code: delivery.code, at: new Date().toISOString() };
}

/** The newest code the mailbox holds for an address (used by tests and by developers reading the file). */
export function latestCode(mailboxFile: string, email: string): string | undefined {
  if (!existsSync(mailboxFile)) return undefined;
  const entries = readFileSync(mailboxFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MailboxEntry)
    .filter((entry) => entry.email.toLowerCase() === email.toLowerCase());
  return entries.at(-1)?.code;
}
