// The events API Gateway's WebSocket API hands to the $connect authorizer and the route integrations. The local
// twin builds exactly these, so both hosts run the same handlers.
import type {
  APIGatewayAuthorizerResult,
  APIGatewayEventWebsocketRequestContextV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyWebsocketEventV2WithRequestContext,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';

/** What the $connect authorizer hands on: API Gateway puts it into requestContext.authorizer, with principalId. */
export interface ConnectAuthorizerContext {
  userId: string;
}

/** A route event ($connect, $disconnect): messageId comes with messages only, the disconnect fields with $disconnect. */
export type WebSocketRouteEvent = APIGatewayProxyWebsocketEventV2WithRequestContext<
  Omit<APIGatewayEventWebsocketRequestContextV2, 'messageId'> & {
    messageId?: string;
    authorizer?: Partial<ConnectAuthorizerContext> & { principalId?: string };
    identity?: { sourceIp: string; userAgent?: string };
    disconnectStatusCode?: number;
    disconnectReason?: string;
  }
> & { headers?: Record<string, string | undefined>; multiValueHeaders?: Record<string, string[] | undefined> };

export type WebSocketRouteHandler = (event: WebSocketRouteEvent) => Promise<APIGatewayProxyResultV2>;
export type ConnectAuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** The message of the error a Lambda authorizer throws to make API Gateway answer 401. */
export const UNAUTHORIZED = 'Unauthorized';
