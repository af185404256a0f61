// Secrets a function declares (`secrets` in lambdas/routes.ts and lambdas/workflows.ts), read once per container.
// In the cloud the function is given the secret's ARN (SECRET_<NAME>_ID) and may read exactly that secret in Secrets
// Manager (lib/constructs/function-factory.ts grants it); on the twin it is given the value itself (SECRET_<NAME>),
// and only when it declares the secret (lib/local/grants.ts hides it from the others). A failed read is retried on
// the next call, never cached.
import { envNamePart } from './config.js';

export const SECRETS = {
  /** The Shopify app's credentials from its Partner Dashboard, as JSON {"apiKey": client id, "apiSecret": client secret}. */
  shopifyApp: { description: "The Shopify app's client id and client secret" },
  /** The key that seals the shops' offline tokens at rest (domain/shopify/tokens.ts); rotating it disconnects every shop. */
  shopTokenKey: { description: 'Key sealing the Shopify offline tokens at rest (rotating it disconnects every shop)' },
} as const;
export type SecretName = keyof typeof SECRETS;

/** The variable holding a secret's value (the twin). */
export const secretValueEnvName = (name: SecretName) => `SECRET_${envNamePart(name)}`;
/** The variable holding a secret's ARN in Secrets Manager (the cloud). */
export const secretIdEnvName = (name: SecretName) => `SECRET_${envNamePart(name)}_ID`;

/** Whether this function was given the secret at all (a stage may run without, e.g. without a Shopify app). */
export const hasSecret = (name: SecretName, env: NodeJS.ProcessEnv = process.env): boolean => Boolean(env[secretValueEnvName(name)] || env[secretIdEnvName(name)]);

const cache = new Map<SecretName, Promise<string>>();

/** The secret's text. */
export function readSecret(name: SecretName): Promise<string> {
  let value = cache.get(name);
  if (!value) {
    value = load(name).catch((error: unknown) => {
      cache.delete(name);
      throw error;
    });
    cache.set(name, value);
  }
  return value;
}

async function load(name: SecretName): Promise<string> {
  const direct = process.env[secretValueEnvName(name)];
  if (direct) return direct;
  const secretId = process.env[secretIdEnvName(name)];
  if (!secretId) throw new Error(`Missing configuration: environment variable ${secretIdEnvName(name)} is not set`);
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
  const text = SecretString?.trim();
  if (!text) throw new Error(`Secret ${secretId} is empty`);
  return text;
}
