// The one table of the realtime functions, as lambdas/routes.ts is for the HTTP API and lambdas/workflows.ts for the
// workflows. CDK builds each function from its entry (lib/constructs/realtime.ts: the WebSocket API's $connect
// authorizer and routes, the fan-out behind the table streams); the local twin serves the same handler modules
// (lib/local/realtime.ts, the stream poller) and the dev tools list them.
import type { TableName } from './data/tables.js';
import type { Access } from './routes.js';
import type { WorkflowName } from './workflows.js';

export interface RealtimeFunction {
  /** Module lambdas/handlers/<handler>.ts, exporting `handler`. */
  handler: string;
  tables?: Partial<Record<TableName, Access>>;
  /** Workflows it starts (their ARNs are in its environment). */
  workflows?: readonly WorkflowName[];
  timeoutSeconds?: number;
}

export const REALTIME_FUNCTIONS = {
  /** The $connect authorizer: verifies the Cognito ID token of the `token` query parameter. */
  authorize: { handler: 'ws-authorize' },
  /** $connect: remembers the connection under its user. */
  connect: { handler: 'ws-connect', tables: { connections: 'write' } },
  /** $disconnect: forgets it. */
  disconnect: { handler: 'ws-disconnect', tables: { connections: 'write' } },
  /**
   * The table streams' one consumer (one event source mapping per streamed table, each a line of the concurrency budget,
   * lib/concurrency.ts): posts each change to its owner's connections and forgets the ones that are gone, and turns a
   * record that reached its end state into webhook deliveries (lambdas/domain/webhooks/events.ts), started with the
   * event's ids only (the deliveries read the record: WORKFLOWS.webhookDelivery's Deliver).
   */
  fanOut: { handler: 'ws-fan-out', tables: { connections: 'write', webhooks: 'read' }, workflows: ['webhookDelivery'], timeoutSeconds: 60 },
} as const satisfies Record<string, RealtimeFunction>;

export type RealtimeFunctionName = keyof typeof REALTIME_FUNCTIONS;
export type RealtimeHandler = (typeof REALTIME_FUNCTIONS)[RealtimeFunctionName]['handler'];
