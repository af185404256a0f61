// How the local twin runs a Lambda handler: the module lambdas/handlers/<name>.ts, loaded once, called with the
// event and a context like Lambda's.
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { USER_ROUTE_PRELUDE } from '../../lambdas/routes.js';
import { runAsFunction } from './grants.js';

export type LambdaHandler = (event: unknown, context: Context) => Promise<any>;
export type LoadHandler = (name: string) => Promise<LambdaHandler>;

const projectRoot = resolve(import.meta.dirname, '../..');
const handlersDir = join(projectRoot, 'lambdas/handlers');

export function createHandlerLoader(): LoadHandler {
  const loaded = new Map<string, Promise<LambdaHandler>>();
  // What the cloud bundles ahead of every user route's handler (USER_ROUTE_PRELUDE) is loaded once here, before any
  // handler: the handlers share this process's http wrapper, so it is installed for all of them.
  let prelude: Promise<unknown> | undefined;
  return (name) => {
    let handler = loaded.get(name);
    if (!handler) {
      prelude ??= import(pathToFileURL(join(projectRoot, USER_ROUTE_PRELUDE)).href);
      // Each function runs with its own grants (lib/local/grants.ts): its module's first load and every call.
      handler = prelude
        .then(() => runAsFunction(name, () => import(pathToFileURL(join(handlersDir, `${name}.ts`)).href)))
        .then((module: { handler: LambdaHandler }) => (event: unknown, context: Context) => runAsFunction(name, () => module.handler(event, context)));
      loaded.set(name, handler);
    }
    return handler;
  };
}

export function lambdaContext(functionName: string, timeoutMs = 900_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
