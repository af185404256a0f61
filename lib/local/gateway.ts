// The local HTTP gateway: API Gateway's part on the local twin. It serves the same route table as the cloud,
// verifies the Cognito ID token as the JWT authorizer does (issuer, audience, signature against cognito-local's JWKS),
// builds the same payload v2 event, invokes the route's function (its own worker: lambda-runtime.ts), and answers
// CORS preflights with the API's settings.
// The same origin also serves the web app and its runtime /config.json.
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyResultV2, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { RuntimeConfig } from '../../lambdas/contracts/api.js';
import { API_KEY_AUTH_CACHE_SECONDS, API_KEY_HEADER, API_PREFIX, PUBLIC_API_PREFIX } from '../../lambdas/contracts/api-keys.js';
import type { ApiKeyAuthorizerContext } from '../../lambdas/core/http.js';
import { createIdTokenVerifier } from '../../lambdas/core/jwt.js';
import {
  DEFAULT_FUNCTION_TIMEOUT_SECONDS,
  GATEWAY_ERROR_CODES,
  GATEWAY_ERRORS,
  HTTP_API_INTEGRATION_TIMEOUT_SECONDS,
  HTTP_API_PAYLOAD_BYTES,
  HTTP_API_STAGE_THROTTLE,
  HTTP_API_THROTTLED,
  LAMBDA_SYNC_PAYLOAD_BYTES,
  type GatewayErrorCode,
} from '../../lambdas/contracts/aws-limits.js';
import { API_KEY_AUTHORIZER, CORS, ROUTES, publicApiRoutes, type RouteDefinition } from '../../lambdas/routes.js';
import { FUNCTION_TIMED_OUT, FunctionError, type Invoke } from './lambda-runtime.js';

export { API_PREFIX };

export interface GatewayOptions {
  port: number;
  issuer: string;
  jwksUri: string;
  audience: string;
  allowedOrigins: string[];
  runtimeConfig: () => RuntimeConfig;
  /** Built web app to serve (with index.html for client routes); absent → a page that says how to build it. */
  webRoot?: string;
  /** Requests the API doesn't own go here first (e.g. Vite's dev middleware); it calls next() when it has none. */
  webMiddleware?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  /** Other local services on this origin, by path prefix (e.g. the WebSocket API's @connections endpoint). */
  mounts?: { prefix: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> }[];
  /** Runs a function (by its name: a route's handler, the API-key authorizer). */
  invoke: Invoke;
  log: (line: string) => void;
  /** How long the API-key authorizer's answer for one key is reused (API Gateway's results TTL); default the cloud's. */
  apiKeyCacheSeconds?: number;
  /** The stage throttle; default the cloud stage's (HTTP_API_STAGE_THROTTLE); false: none. */
  throttle?: { rateLimit: number; burstLimit: number } | false;
  /**
   * Tests only: every duration (each route's function timeout, the 30 s integration timeout, the throttle's refill
   * period) is multiplied by this, so that a test sees a route cut at its own time without waiting for it, or the
   * burst limit without the bucket refilling meanwhile. Default 1.
   */
  timeScale?: number;
}

export interface Gateway {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

export interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  paramNames: string[];
}

export interface RouteMatch {
  route: RouteDefinition;
  params: Record<string, string>;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const routes = compileRoutes();
  // The public API: the routes the table marks, under /v1, authorised by the API-key authorizer.
  const keyRoutes = compileRoutes(publicApiRoutes().map((route) => ({ ...route, path: `${PUBLIC_API_PREFIX}${route.path}` })));
  const keyCacheMs = (options.apiKeyCacheSeconds ?? API_KEY_AUTH_CACHE_SECONDS) * 1000;
  const keyAnswers = new Map<string, { context: ApiKeyAuthorizerContext; expiresAt: number }>();
  const compressed = new CompressedFiles();
  const verifier = createIdTokenVerifier({ issuer: options.issuer, audience: options.audience, jwksUri: options.jwksUri });
  const timeScale = options.timeScale ?? 1;
  const stageThrottle = options.throttle === false ? undefined : (options.throttle ?? HTTP_API_STAGE_THROTTLE);
  const throttle = stageThrottle && new TokenBucket({ rateLimit: stageThrottle.rateLimit / timeScale, burstLimit: stageThrottle.burstLimit });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log(`gateway error: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) send(res, 500, { message: 'Internal Server Error' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (url.pathname === '/config.json') return send(res, 200, options.runtimeConfig());
    const mount = options.mounts?.find(({ prefix }) => url.pathname.startsWith(prefix));
    if (mount) return mount.handle(req, res);
    // Only /api/… is the API: /api itself is a screen of the web app (the API keys page).
    if (url.pathname.startsWith(`${API_PREFIX}/`)) return handleApi(req, res, url);
    if (options.webMiddleware) {
      return options.webMiddleware(req, res, () => {
        serveStatic(req, res, url).catch((error: unknown) => {
          options.log(`gateway error: ${error instanceof Error ? error.stack : String(error)}`);
          if (!res.headersSent) send(res, 500, { message: 'Internal Server Error' });
        });
      });
    }
    return serveStatic(req, res, url);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const origin = req.headers.origin;
    const corsHeaders = origin && options.allowedOrigins.includes(origin) ? corsHeadersFor(origin) : {};
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname.slice(API_PREFIX.length) || '/';
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...corsHeaders, 'access-control-allow-methods': CORS.allowMethods.join(','), 'access-control-allow-headers': CORS.allowHeaders.join(','), 'access-control-max-age': String(CORS.maxAgeSeconds) });
      return void res.end();
    }
    // The stage throttle, as API Gateway's token bucket: `burstLimit` requests at once, refilled at `rateLimit` per second.
    if (throttle && !throttle.take()) return send(res, HTTP_API_THROTTLED.status, HTTP_API_THROTTLED.body, corsHeaders);
    const match = matchRoute(routes, method, path) ?? matchRoute(keyRoutes, method, path);
    if (!match) return send(res, 404, { message: 'Not Found' }, corsHeaders);
    // A declared length over the HTTP API's payload limit is refused before anything else is read.
    if (Number(req.headers['content-length'] ?? 0) > HTTP_API_PAYLOAD_BYTES) return refuseBody(req, res, corsHeaders);

    let claims: Record<string, string> | undefined;
    let keyContext: ApiKeyAuthorizerContext | undefined;
    if (match.route.publicApi && match.route.path.startsWith(`${PUBLIC_API_PREFIX}/`)) {
      // As API Gateway: without the identity source (the key header) the authorizer isn't called at all.
      const key = headerValue(req.headers[API_KEY_HEADER]);
      if (!key) return send(res, 401, { message: 'Unauthorized' }, corsHeaders);
      keyContext = await authorizeKey(key, match.route, path, req);
    } else if (match.route.auth === 'user') {
      claims = await verifyBearer(req.headers.authorization);
      if (!claims) return send(res, 401, { message: 'Unauthorized' }, corsHeaders);
    }
    const body = await readBody(req, HTTP_API_PAYLOAD_BYTES);
    if (!body) return refuseBody(req, res, corsHeaders);
    const event = buildHttpEvent({
      route: match.route,
      params: match.params,
      path,
      rawQueryString: url.search.slice(1),
      headers: headersOf(req),
      body,
      sourceIp: req.socket.remoteAddress,
    }, claims, keyContext);
    // The event is the Lambda's request payload: over 6 MB, Invoke refuses it and the handler never runs.
    if (Buffer.byteLength(JSON.stringify(event)) > LAMBDA_SYNC_PAYLOAD_BYTES) return sendGatewayError(res, GATEWAY_ERROR_CODES.payloadTooLarge, corsHeaders);
    // The function ends at its own timeout, the integration at the HTTP API's 30 s, whichever comes first.
    const functionMs = (match.route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS) * 1000 * timeScale;
    const integrationMs = HTTP_API_INTEGRATION_TIMEOUT_SECONDS * 1000 * timeScale;
    let result: APIGatewayProxyResultV2 | undefined;
    try {
      result = (await withTimeout(options.invoke(match.route.handler, event, { timeoutMs: functionMs }), integrationMs)) as APIGatewayProxyResultV2 | undefined;
    } catch (error) {
      if (!(error instanceof FunctionError)) throw error;
      if (error.errorType === FUNCTION_TIMED_OUT) {
        options.log(`${match.route.handler} error: ${error.errorType}: ran past its deployed timeout (${functionMs / 1000} s)`);
        return sendGatewayError(res, GATEWAY_ERROR_CODES.functionTimeout, corsHeaders);
      }
      // A function error is API Gateway's 500; the function's own error stays in its log.
      options.log(`${match.route.handler} error: ${error.errorType}: ${error.message}${error.trace.length ? `\n${error.trace.join('\n')}` : ''}`);
      return send(res, 500, { message: 'Internal Server Error' }, corsHeaders);
    }
    if (result === undefined) return sendGatewayError(res, GATEWAY_ERROR_CODES.integrationTimeout, corsHeaders);
    // What the handler returns is the Lambda's response payload: over 6 MB, the invocation fails.
    if (Buffer.byteLength(JSON.stringify(result)) > LAMBDA_SYNC_PAYLOAD_BYTES) {
      options.log(`${match.route.handler}: response over the Lambda payload limit (${LAMBDA_SYNC_PAYLOAD_BYTES} bytes)`);
      return sendGatewayError(res, GATEWAY_ERROR_CODES.responseTooLarge, corsHeaders);
    }
    writeResult(res, result, corsHeaders);
  }

  /**
   * 413 for a body over the HTTP API's limit; the rest of it is not read, and the connection closes after the answer.
   * The close lingers, as web servers' do: Node would close the socket the moment the answer is written, and closing a
   * socket that still holds unread bytes of the client's body makes the kernel send a reset, which can wipe out the
   * answer before the client has read it (the client then sees ECONNRESET instead of the 413). So the answer's end is
   * sent (FIN), nothing more is read (the client's writes stall), and the socket closes when the client closes it, or
   * after REFUSED_BODY_LINGER_MS.
   */
  function refuseBody(req: IncomingMessage, res: ServerResponse, corsHeaders: Record<string, string>): void {
    const socket = req.socket;
    // Consuming the body (then paused) keeps Node from draining the rest of it after the answer.
    req.on('data', () => undefined);
    req.pause();
    res.setHeader('connection', 'close');
    res.on('finish', () => {
      socket.removeListener('finish', socket.destroy);
      setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS).unref();
    });
    sendGatewayError(res, GATEWAY_ERROR_CODES.requestTooLarge, corsHeaders);
  }

  /** As API Gateway's Lambda authorizer with simple responses: the same handler, its answer cached per key value. */
  async function authorizeKey(key: string, route: RouteDefinition, path: string, req: IncomingMessage): Promise<ApiKeyAuthorizerContext> {
    const now = Date.now();
    const cached = keyAnswers.get(key);
    if (cached && cached.expiresAt > now) return cached.context;
    const routeKey = `${route.method} ${route.path}`;
    const event: APIGatewayRequestAuthorizerEventV2 = {
      version: '2.0',
      type: 'REQUEST',
      routeArn: `arn:aws:execute-api:local:local:local/$default/${route.method}${route.path}`,
      identitySource: [key],
      routeKey,
      rawPath: path,
      rawQueryString: '',
      cookies: [],
      headers: headersOf(req),
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: req.headers.host ?? 'localhost',
        domainPrefix: 'localhost',
        http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: req.headers['user-agent'] ?? '' },
        requestId: randomUUID(),
        routeKey,
        stage: '$default',
        time: new Date(now).toUTCString(),
        timeEpoch: now,
      },
    };
    const answer = (await options.invoke(API_KEY_AUTHORIZER.handler, event)) as { isAuthorized: boolean; context?: ApiKeyAuthorizerContext };
    const context = answer.isAuthorized ? (answer.context ?? {}) : { denied: 'API_KEY_INVALID' };
    if (keyCacheMs > 0) keyAnswers.set(key, { context, expiresAt: now + keyCacheMs });
    if (keyAnswers.size > 10_000) keyAnswers.delete(keyAnswers.keys().next().value!);
    return context;
  }

  /** As API Gateway's JWT authorizer: a Bearer token (or the bare token) signed by the pool, for this client. */
  async function verifyBearer(header: string | undefined): Promise<Record<string, string> | undefined> {
    const token = header?.replace(/^Bearer\s+/i, '').trim();
    if (!token) return undefined;
    try {
      return claimsOf(await verifier.verify(token));
    } catch {
      return undefined;
    }
  }

  function corsHeadersFor(origin: string): Record<string, string> {
    return { 'access-control-allow-origin': origin, vary: 'origin' };
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!options.webRoot || !existsSync(join(options.webRoot, 'index.html'))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end('<!doctype html><title>ModelLoop</title><h1>ModelLoop local twin</h1><p>The API is running. Build the web app with <code>npm run build:web</code> and reload.</p>');
    }
    const root = resolve(options.webRoot);
    const requested = resolve(root, `.${normalize(decodeURIComponent(url.pathname))}`);
    const isFile = requested.startsWith(root) && existsSync(requested) && statSync(requested).isFile();
    // As the cloud's viewer-request function: / gets index.html (the landing page, prerendered), every other client
    // route the app shell (app.html; index.html in a build from before the landing page was prerendered).
    const shell = url.pathname !== '/' && existsSync(join(root, 'app.html')) ? 'app.html' : 'index.html';
    const file = isFile ? requested : join(root, shell);
    const { size, mtimeMs } = statSync(file);
    // As CloudFront's behaviours: hashed files under assets/ are cached for good, everything else (the shell, the
    // favicon) is revalidated on every visit, so a new release is seen at once.
    const immutable = isFile && requested.startsWith(join(root, 'assets') + sep);
    const etag = `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
    const contentType = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string> = {
      'content-type': contentType,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag,
    };
    const compressible = COMPRESSIBLE.test(contentType) && size >= MIN_COMPRESSED_BYTES;
    if (compressible) headers.vary = 'accept-encoding';
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) {
      res.writeHead(304, headers);
      return void res.end();
    }
    const encoding = compressible ? preferredEncoding(req.headers['accept-encoding']) : undefined;
    if (!encoding) {
      res.writeHead(200, { ...headers, 'content-length': String(size) });
      if (req.method === 'HEAD') return void res.end();
      return void createReadStream(file).pipe(res);
    }
    const body = await compressed.get(file, size, mtimeMs, encoding);
    res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolveListen());
  });
  return {
    server,
    url: `http://localhost:${options.port}`,
    stop: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** The route table as the gateway matches it: API Gateway's `{name}` path parameters as capture groups. */
export function compileRoutes(routes: readonly RouteDefinition[] = ROUTES): CompiledRoute[] {
  return routes.map((route) => {
    const paramNames: string[] = [];
    const source = route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => {
      paramNames.push(name);
      return '([^/]+)';
    });
    return { route, pattern: new RegExp(`^${source}$`), paramNames };
  });
}

export function matchRoute(routes: CompiledRoute[], method: string, path: string): RouteMatch | undefined {
  for (const compiled of routes) {
    if (compiled.route.method !== method) continue;
    const found = compiled.pattern.exec(path);
    if (!found) continue;
    const params = Object.fromEntries(compiled.paramNames.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]));
    return { route: compiled.route, params };
  }
  return undefined;
}

/** A verified token's payload as API Gateway's JWT authorizer hands it to the integration: every claim a string. */
export function claimsOf(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, Array.isArray(value) ? `[${value.join(' ')}]` : String(value)]));
}

export interface HttpEventInput extends RouteMatch {
  /** The path below the API's prefix, as the route table writes it: /clothing-items/abc */
  path: string;
  rawQueryString: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
  sourceIp?: string;
}

/** The payload v2 event API Gateway's HTTP API hands to a route's Lambda (the local gateway and `npm run invoke` build it here). */
export function buildHttpEvent(
  input: HttpEventInput,
  claims: Record<string, string> | undefined,
  keyContext?: ApiKeyAuthorizerContext,
): APIGatewayProxyEventV2WithJWTAuthorizer {
  const { route, params, path, rawQueryString, headers, body } = input;
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) query[name] = name in query ? `${query[name]},${value}` : value;
  const routeKey = `${route.method} ${route.path}`;
  const now = Date.now();
  const isText = /json|text|xml|x-www-form-urlencoded/.test(headers['content-type'] ?? 'application/json');
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
    stageVariables: undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: input.sourceIp ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
      // A Lambda authorizer's context arrives as `authorizer.lambda`, a JWT authorizer's claims as `authorizer.jwt`.
      authorizer: keyContext
        ? ({ lambda: keyContext } as unknown as APIGatewayProxyEventV2WithJWTAuthorizer['requestContext']['authorizer'])
        : { principalId: '', integrationLatency: 0, jwt: { claims: claims ?? {}, scopes: [] } },
    },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2, corsHeaders: Record<string, string>): void {
  if (typeof result === 'string') return send(res, 200, result, corsHeaders);
  const headers: Record<string, string | string[]> = { ...corsHeaders };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** How long a refused body's connection stays open after the 413, for the client to read it (see refuseBody). */
const REFUSED_BODY_LINGER_MS = 2_000;

/** The request body, or undefined as soon as it grows past `limit` bytes (reading stops there). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        return resolveBody(undefined);
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** API Gateway's own refusal (its status and message), with the stable code every error of this API carries. */
function sendGatewayError(res: ServerResponse, code: GatewayErrorCode, headers: Record<string, string>): void {
  const { status, error } = GATEWAY_ERRORS[code];
  send(res, status, { error, code, message: error }, headers);
}

/** API Gateway's throttle: a bucket of `burstLimit` tokens, refilled at `rateLimit` per second; a request takes one. */
class TokenBucket {
  #tokens: number;
  #updatedAt = Date.now();

  constructor(private readonly limits: { rateLimit: number; burstLimit: number }) {
    this.#tokens = limits.burstLimit;
  }

  take(now = Date.now()): boolean {
    this.#tokens = Math.min(this.limits.burstLimit, this.#tokens + ((now - this.#updatedAt) / 1000) * this.limits.rateLimit);
    this.#updatedAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolveTimeout) => (timer = setTimeout(() => resolveTimeout(undefined), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.mp4': 'video/mp4',
};

/** What CloudFront compresses: text formats, above 1 KB. */
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg\+xml)/;
const MIN_COMPRESSED_BYTES = 1024;

type Encoding = 'br' | 'gzip';

/** Brotli when the browser takes it, else gzip; none when it accepts neither (or refuses them with q=0). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const brotliAt = (quality: number, bytes: Buffer) =>
  brotliAsync(bytes, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    },
  });

/**
 * Compressed copies of the web app's files, made on first request and kept while the file is unchanged (a rebuild
 * writes new files). Brotli is made at a fast setting first, so no visitor waits for it, then replaced by the
 * smallest setting in the background.
 */
class CompressedFiles {
  #entries = new Map<string, { version: string; bodies: Partial<Record<Encoding, Promise<Buffer>>> }>();

  get(file: string, size: number, mtimeMs: number, encoding: Encoding): Promise<Buffer> {
    const version = `${size}-${mtimeMs}`;
    let entry = this.#entries.get(file);
    if (entry?.version !== version) {
      entry = { version, bodies: {} };
      this.#entries.set(file, entry);
    }
    const cached = entry.bodies[encoding];
    if (cached) return cached;
    const current = entry;
    const body = readFile(file).then((bytes) => {
      if (encoding === 'gzip') return gzipAsync(bytes, { level: 9 });
      void brotliAt(11, bytes)
        .then((smallest) => {
          if (this.#entries.get(file) === current) current.bodies.br = Promise.resolve(smallest);
        })
        .catch(() => undefined);
      return brotliAt(5, bytes);
    });
    // A failed read is not remembered: the next request tries again.
    body.catch(() => {
      if (current.bodies[encoding] === body) delete current.bodies[encoding];
    });
    current.bodies[encoding] = body;
    return body;
  }
}
