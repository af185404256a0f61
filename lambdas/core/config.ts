// Configuration read once, at module scope, by name. A missing value fails fast and says which one.
// This is the bottom layer: the names of tables, buckets and workflows are passed in by the modules that own them.

export function requireEnv(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (!value) throw new Error(`Missing configuration: environment variable ${name} is not set`);
  return value;
}

/** `clothingItems` → `CLOTHING_ITEMS`: the one spelling of a resource's name inside an environment variable name. */
export function envNamePart(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

/** The environment variable that carries a workflow's state machine ARN to the functions that start it. */
export function workflowEnvName(workflow: string): string {
  return `WORKFLOW_${envNamePart(workflow)}_ARN`;
}

/** The Cognito user pool's id, for the function that deletes users (the delete-account workflow). */
export const USER_POOL_ENV = 'USER_POOL_ID';
