// The one consumer of the DynamoDB streams of profiles, clothing items, generations, jobs and batches: every change to
// its owner's WebSocket connections, and every generation, job or batch that reached its end state to the owner's
// webhook endpoints. One consumer per stream keeps the stage within its concurrency budget (lib/concurrency.ts): each
// event source mapping can hold an execution at any moment. A record either part could not handle is reported, so the
// event source retries the batch from it; both parts are idempotent (a balance or "reload this list"; delivery
// executions named by the event), so a retry repeats nothing anyone notices.
import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { requireEnv } from '../core/config.js';
import { connectionsOf, deleteConnection } from '../data/connections-repo.js';
import { emitFromStream } from '../domain/webhooks/events.js';
import { CALLBACK_URL_ENV, fanOut, type FanOutPorts } from '../realtime/fan-out.js';

// The stage's callback URL in the cloud, the local twin's @connections endpoint locally: configuration only.
const management = new ApiGatewayManagementApiClient({ endpoint: requireEnv(CALLBACK_URL_ENV) });
const encoder = new TextEncoder();

const ports: FanOutPorts = {
  connectionsOf,
  forget: deleteConnection,
  post: async (connectionId, message) => {
    try {
      await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: encoder.encode(JSON.stringify(message)) }));
      return 'sent';
    } catch (error) {
      if (error instanceof GoneException) return 'gone';
      throw error;
    }
  },
};

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const [live, webhooks] = await Promise.all([fanOut(event, ports), emitFromStream(event)]);
  const failed = new Set([...live.batchItemFailures, ...webhooks.batchItemFailures].map((failure) => failure.itemIdentifier));
  return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
};
