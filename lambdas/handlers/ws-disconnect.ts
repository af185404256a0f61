// WebSocket $disconnect: forgets the connection (best effort by API Gateway; the TTL covers a lost one).
import { log } from '../core/log.js';
import { deleteConnection } from '../data/connections-repo.js';
import type { WebSocketRouteHandler } from '../realtime/events.js';

export const handler: WebSocketRouteHandler = async (event) => {
  const { connectionId } = event.requestContext;
  await deleteConnection(connectionId);
  log.info('websocket disconnected', { connectionId });
  return { statusCode: 200 };
};
