// DynamoDB streams of profiles, clothing items, generations and jobs → the owner's WebSocket connections.
import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { requireEnv } from '../core/config.js';
import { connectionsOf, deleteConnection } from '../data/connections-repo.js';
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

export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => fanOut(event, ports);
