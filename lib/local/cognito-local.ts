// cognito-local: the Cognito user pool API on the local filesystem. The user pool and app client are created on the
// first start with the cloud pool's settings (e-mail sign-in, e-mail verification, optional TOTP MFA, the password
// policy, enforced by the server) and their ids
// kept under the data directory, so a second start finds the same users.
// Codes it would e-mail are printed to the terminal and appended to a mailbox file (JSON lines).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { startChild, waitFor, type Child } from './processes.js';
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
}): Promise<CognitoLocal> {
  mkdirSync(options.dataDir, { recursive: true });
  const mailboxFile = join(options.dataDir, 'mailbox.jsonl');
  const child = startChild(process.execPath, [join(import.meta.dirname, 'cognito-local-server.mjs')], {
    name: 'cognito',
    cwd: options.dataDir,
    env: { ...process.env, PORT: String(options.port), HOST: '127.0.0.1', DEBUG: '', NODE_NO_WARNINGS: '1', [PASSWORD_RULES_ENV]: passwordRulesForServer() },
    onLine: (line) => {
      const delivery = readCodeDelivery(line);
      if (!delivery) return options.onLine(line);
      appendFileSync(mailboxFile, `${JSON.stringify(delivery)}\n`);
      options.onCode(delivery);
    },
  });
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = new CognitoIdentityProviderClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    await waitFor('cognito-local', () => client.send(new ListUserPoolsCommand({ MaxResults: 1 })));
    const ids = await ensurePool(client, join(options.dataDir, 'pool.json'));
    const issuer = `${endpoint}/${ids.userPoolId}`;
    return { endpoint, ...ids, issuer, jwksUri: `${issuer}/.well-known/jwks.json`, mailboxFile, child };
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    client.destroy();
  }
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
