// The one table of the realtime functions, as lambdas/routes.ts is for the HTTP API and lambdas/workflows.ts for the
// workflows. CDK builds each function from its entry (lib/constructs/realtime.ts: the WebSocket API's $connect
// authorizer and routes, the fan-out behind the table streams); the local twin serves the same handler modules
// (lib/local/realtime.ts, the stream poller) and the dev tools list them.
import type { TableName } from './data/tables.js';
import type { Access } from './routes.js';

export interface RealtimeFunction {
  /** Module lambdas/handlers/<handler>.ts, exporting `handler`. */
  handler: string;
  tables?: Partial<Record<TableName, Access>>;
  timeoutSeconds?: number;
}

export const REALTIME_FUNCTIONS = {
  /** The $connect authorizer: verifies the Cognito ID token of the `token` query parameter. */
  authorize: { handler: 'ws-authorize' },
  /** $connect: remembers the connection under its user. */
  connect: { handler: 'ws-connect', tables: { connections: 'write' } },
  /** $disconnect: forgets it. */
  disconnect: { handler: 'ws-disconnect', tables: { connections: 'write' } },
  /** The table streams' consumer: posts each change to its owner's connections, forgets the ones that are gone. */
  fanOut: { handler: 'ws-fan-out', tables: { connections: 'write' }, timeoutSeconds: 30 },
} as const satisfies Record<string, RealtimeFunction>;

export type RealtimeFunctionName = keyof typeof REALTIME_FUNCTIONS;
export type RealtimeHandler = (typeof REALTIME_FUNCTIONS)[RealtimeFunctionName]['handler'];
