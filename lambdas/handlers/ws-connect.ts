// WebSocket $connect, behind the authorizer: remembers the connection under the verified user id.
import { log } from '../core/log.js';
import { connectionItem, saveConnection } from '../data/connections-repo.js';
import type { WebSocketRouteHandler } from '../realtime/events.js';

export const handler: WebSocketRouteHandler = async (event) => {
  const { connectionId, authorizer } = event.requestContext;
  const userId = authorizer?.userId;
  if (!userId) return { statusCode: 401 };
  await saveConnection(connectionItem(connectionId, userId));
  log.info('websocket connected', { connectionId, userId });
  return { statusCode: 200 };
};
