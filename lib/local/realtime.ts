// The WebSocket API's part on the local twin: a `ws` server on the gateway's origin that does what API Gateway does
// around the very same handlers — the $connect authorizer (a missing token is refused before it, as an absent identity
// source is), $connect and $disconnect with the events API Gateway builds — and the @connections management API
// (POST sends, GET describes, DELETE closes), so the fan-out's ApiGatewayManagementApiClient works unchanged with
// this endpoint. Like a stage URL, `path` is both the socket's address and the management API's base.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResultV2, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { WebSocketServer, type WebSocket } from 'ws';
import { WEBSOCKET_TOKEN_PARAM } from '../../lambdas/contracts/api.js';
import {
  UNAUTHORIZED,
  type ConnectAuthorizerHandler,
  type WebSocketRouteEvent,
  type WebSocketRouteHandler,
} from '../../lambdas/realtime/events.js';
import { REALTIME_FUNCTIONS } from '../../lambdas/realtime-functions.js';
import { WEBSOCKET_FRAME_BYTES, WEBSOCKET_MESSAGE_BYTES, WEBSOCKET_TOO_BIG_CLOSE_CODE } from '../../lambdas/contracts/aws-limits.js';
import type { Invoke } from './lambda-runtime.js';
import { connectionsRefusal, type TwinAccess } from './grants.js';
import { checkSigV4, signedRequestOf } from './sigv4.js';

/** API Gateway closes every WebSocket connection after 2 hours; so does the twin. */
const MAX_CONNECTION_MS = 2 * 60 * 60 * 1000;
const LOCAL_ACCOUNT = '000000000000';
const API_ID = 'local';
const STAGE = 'local';

export interface LocalWebSocketApiOptions {
  /** Where the socket lives on the gateway's origin, e.g. /ws; the management API is under <path>/@connections/. */
  path: string;
  region: string;
  /**
   * Management API calls must carry a valid SigV4 signature of the twin's credentials or a function's, as the cloud's
   * need IAM-signed requests, and a function may only do what it is granted (grants.ts: the fan-out posts).
   */
  access: TwinAccess;
  /** Runs a function (ws-authorize, ws-connect, ws-disconnect) by its name. */
  invoke: Invoke;
  log: (line: string) => void;
}

export interface LocalWebSocketApi {
  /** Mount this on the gateway: the @connections management API. */
  management: { prefix: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> };
  /** Serves WebSocket upgrades of `path` on the gateway's server. */
  attach(server: Server): void;
  /** Closes every connection (running $disconnect for each) and the server. */
  stop(): Promise<void>;
}

interface OpenConnection {
  socket: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
  closed: Promise<void>;
}

/** The local WebSocket API, calling the realtime functions through `invoke`. */
export async function startLocalWebSocketApi(options: LocalWebSocketApiOptions): Promise<LocalWebSocketApi> {
  const caller = <T extends (event: never) => Promise<unknown>>(name: string): T =>
    ((event: unknown) => options.invoke(name, event)) as unknown as T;
  const authorize = caller<ConnectAuthorizerHandler>(REALTIME_FUNCTIONS.authorize.handler);
  const connect = caller<WebSocketRouteHandler>(REALTIME_FUNCTIONS.connect.handler);
  const disconnect = caller<WebSocketRouteHandler>(REALTIME_FUNCTIONS.disconnect.handler);
  // A client message over the WebSocket API's message size closes the connection with 1009 (ws's own check); a frame
  // over its frame size does too (watchFrameSizes), whatever message it belongs to.
  const wss = new WebSocketServer({ noServer: true, maxPayload: WEBSOCKET_MESSAGE_BYTES });
  const connections = new Map<string, OpenConnection>();
  const managementPrefix = `${options.path}/@connections/`;
  const detach: (() => void)[] = [];
  /** $disconnect calls still running: stop() waits for them before the emulators go away. */
  const disconnecting = new Set<Promise<void>>();

  const context = (connectionId: string, connectedAt: number, req: IncomingMessage, routeKey: string, eventType: 'CONNECT' | 'DISCONNECT' | 'MESSAGE') => {
    const now = Date.now();
    return {
      routeKey,
      eventType,
      extendedRequestId: randomUUID(),
      requestTime: new Date(now).toUTCString(),
      messageDirection: 'IN' as const,
      stage: STAGE,
      connectedAt,
      requestTimeEpoch: now,
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: req.headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      domainName: req.headers.host ?? 'localhost',
      connectionId,
      apiId: API_ID,
    };
  };

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    socket.on('error', () => undefined);
    const connectionId = randomBytes(11).toString('base64');
    const connectedAt = Date.now();
    const headers = headersOf(req);
    const query = Object.fromEntries(url.searchParams);
    // The identity source is the token query parameter: without it API Gateway answers 401 and never calls the authorizer.
    if (!query[WEBSOCKET_TOKEN_PARAM]) return refuse(socket, 401, 'Unauthorized');

    const requestContext = context(connectionId, connectedAt, req, '$connect', 'CONNECT');
    let authorization: APIGatewayAuthorizerResult;
    try {
      authorization = await authorize({
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:${options.region}:${LOCAL_ACCOUNT}:${API_ID}/${STAGE}/$connect`,
        headers,
        multiValueHeaders: multiValued(headers),
        queryStringParameters: query,
        multiValueQueryStringParameters: multiValued(query),
        stageVariables: null,
        requestContext,
      } as unknown as APIGatewayRequestAuthorizerEvent);
    } catch (error) {
      const unauthorized = error instanceof Error && error.message === UNAUTHORIZED;
      if (!unauthorized) options.log(`authorizer error: ${error instanceof Error ? error.stack : String(error)}`);
      return refuse(socket, unauthorized ? 401 : 500, unauthorized ? 'Unauthorized' : 'Internal Server Error');
    }
    if (!allowsConnect(authorization)) return refuse(socket, 403, 'Forbidden');

    const connectEvent: WebSocketRouteEvent = {
      headers,
      multiValueHeaders: multiValued(headers),
      queryStringParameters: query,
      multiValueQueryStringParameters: multiValued(query),
      isBase64Encoded: false,
      requestContext: { ...requestContext, authorizer: { ...authorization.context, principalId: authorization.principalId } },
    };
    let status: number;
    try {
      status = statusOf(await connect(connectEvent));
    } catch (error) {
      options.log(`$connect error: ${error instanceof Error ? error.stack : String(error)}`);
      status = 500;
    }
    if (status >= 300) return refuse(socket, status, 'Forbidden');

    wss.handleUpgrade(req, socket, head, (ws) => {
      let markClosed = () => undefined as void;
      const connection: OpenConnection = {
        socket: ws,
        connectedAt,
        lastActiveAt: connectedAt,
        sourceIp: requestContext.identity.sourceIp,
        userAgent: requestContext.identity.userAgent,
        closed: new Promise<void>((done) => (markClosed = done)),
      };
      connections.set(connectionId, connection);
      const maxAge = setTimeout(() => ws.close(1001, 'Going away'), MAX_CONNECTION_MS);
      maxAge.unref();
      socket.prependListener('data', watchFrameSizes(WEBSOCKET_FRAME_BYTES, () => ws.close(WEBSOCKET_TOO_BIG_CLOSE_CODE, 'Message too big')));
      ws.on('message', () => {
        // A frame over the limit has closed the connection; ws still reads what arrived with it.
        if (ws.readyState !== ws.OPEN) return;
        connection.lastActiveAt = Date.now();
        // No route but $connect/$disconnect is defined, so API Gateway answers every client message like this.
        ws.send(JSON.stringify({ message: 'Forbidden', connectionId, requestId: randomUUID() }));
      });
      ws.on('error', () => undefined);
      ws.on('close', (code, reason) => {
        clearTimeout(maxAge);
        connections.delete(connectionId);
        const event: WebSocketRouteEvent = {
          headers,
          multiValueHeaders: multiValued(headers),
          isBase64Encoded: false,
          requestContext: {
            ...context(connectionId, connectedAt, req, '$disconnect', 'DISCONNECT'),
            disconnectStatusCode: code,
            disconnectReason: reason.toString('utf8'),
          },
        };
        const done = disconnect(event)
          .then(() => undefined)
          .catch((error: unknown) => options.log(`$disconnect error: ${error instanceof Error ? error.stack : String(error)}`))
          .finally(() => {
            disconnecting.delete(done);
            markClosed();
          });
        disconnecting.add(done);
      });
    });
  }

  async function handleManagement(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await signedRequestOf(req);
    const body = request.body;
    // As IAM does in the cloud: only calls whose SigV4 signature is valid for the twin's credentials may use it.
    const signed = await checkSigV4(request, options.access.credentialsOf);
    if ('refusal' in signed) return awsError(res, 403, 'ForbiddenException', signed.refusal.message);
    const url = new URL(req.url ?? '/', 'http://local');
    const denied = connectionsRefusal(options.access.principal(signed.accessKeyId)!, req.method ?? 'GET', url.pathname.slice(options.path.length));
    if (denied) return awsError(res, 403, 'AccessDeniedException', denied.message);
    const connectionId = decodeURIComponent(url.pathname.slice(managementPrefix.length));
    const connection = connections.get(connectionId);
    if (!connection) return awsError(res, 410, 'GoneException', `Connection ${connectionId} is gone`);
    switch (req.method) {
      case 'POST':
        if (body.length > WEBSOCKET_MESSAGE_BYTES) {
          return awsError(res, 413, 'PayloadTooLargeException', `Message of ${body.length} bytes exceeds the ${WEBSOCKET_MESSAGE_BYTES}-byte limit`);
        }
        connection.socket.send(body.toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end();
      case 'GET':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({
            connectedAt: new Date(connection.connectedAt).toISOString(),
            lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
            identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
          }),
        );
      case 'DELETE':
        connection.socket.close(1000);
        res.writeHead(204);
        return void res.end();
      default:
        return awsError(res, 405, 'MethodNotAllowedException', 'Method not allowed');
    }
  }

  return {
    management: { prefix: managementPrefix, handle: handleManagement },
    attach(server) {
      const listener = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (new URL(req.url ?? '/', 'http://local').pathname !== options.path) {
          // Another upgrade (e.g. a dev server's) may be someone else's; with nobody else listening, refuse it.
          if (server.listenerCount('upgrade') === 1) socket.destroy();
          return;
        }
        onUpgrade(req, socket, head).catch((error: unknown) => {
          options.log(`websocket upgrade error: ${error instanceof Error ? error.stack : String(error)}`);
          refuse(socket, 500, 'Internal Server Error');
        });
      };
      server.on('upgrade', listener);
      detach.push(() => server.off('upgrade', listener));
    },
    async stop() {
      for (const undo of detach) undo();
      const open = [...connections.values()];
      for (const connection of open) connection.socket.close(1001, 'Going away');
      await Promise.all(open.map((connection) => connection.closed));
      await Promise.all([...disconnecting]);
      await new Promise<void>((done) => wss.close(() => done()));
    },
  };
}

/**
 * A listener for the raw bytes a client sends on an open connection that reads each frame's header (RFC 6455 §5.2) and
 * calls `tooBig` once for the first frame whose payload is over `limit` bytes; it reads the headers only, skipping
 * every payload, so it sees frames however TCP splits them.
 */
export function watchFrameSizes(limit: number, tooBig: () => void): (chunk: Buffer) => void {
  /** The longest header: 2 bytes, an 8-byte length and a 4-byte mask. */
  const LONGEST_HEADER = 14;
  let header = Buffer.alloc(0);
  let payloadLeft = 0;
  let done = false;
  return (chunk) => {
    let at = 0;
    while (!done && at < chunk.length) {
      if (payloadLeft > 0) {
        const skipped = Math.min(payloadLeft, chunk.length - at);
        payloadLeft -= skipped;
        at += skipped;
        continue;
      }
      const before = header.length;
      header = Buffer.concat([header, chunk.subarray(at, at + LONGEST_HEADER - before)]);
      const length7 = header.length >= 2 ? header[1]! & 0x7f : -1;
      const lengthBytes = length7 === 126 ? 2 : length7 === 127 ? 8 : 0;
      const headerBytes = 2 + lengthBytes + (header.length >= 2 && header[1]! & 0x80 ? 4 : 0);
      if (length7 < 0 || header.length < headerBytes) {
        // The rest of this header comes in the next chunk.
        at = chunk.length;
        continue;
      }
      at += headerBytes - before;
      payloadLeft = lengthBytes === 0 ? length7 : lengthBytes === 2 ? header.readUInt16BE(2) : Number(header.readBigUInt64BE(2));
      header = Buffer.alloc(0);
      if (payloadLeft > limit) {
        done = true;
        tooBig();
      }
    }
  };
}

function allowsConnect(result: APIGatewayAuthorizerResult): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  const effects = statements.map((statement) => statement.Effect);
  return effects.includes('Allow') && !effects.includes('Deny');
}

function statusOf(result: APIGatewayProxyResultV2): number {
  return typeof result === 'string' ? 200 : (result.statusCode ?? 200);
}

function refuse(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${message}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function awsError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ message }));
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function multiValued(values: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, [value]]));
}
