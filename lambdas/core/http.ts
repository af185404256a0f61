// The one HTTP wrapper. Handlers declare what they accept and return data; this turns an API Gateway HTTP API
// (payload v2) event into a typed request — the caller from the verified token only, the body and query parsed with
// zod, the Idempotency-Key checked — and every outcome into a JSON response. Typed errors answer with their status
// and stable code; anything else is logged and answered with a message that reveals nothing inside.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import * as z from 'zod';
import { IDEMPOTENCY_HEADER, IdempotencyKey } from '../contracts/api.js';
import { AppError, notFound } from './errors.js';
import { log } from './log.js';

type HttpEvent = APIGatewayProxyEventV2 | APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpHandler = (event: HttpEvent) => Promise<APIGatewayProxyResultV2>;

interface RouteSpec<B extends z.ZodType, Q extends z.ZodType> {
  body?: B;
  query?: Q;
  /** Spending requests: an Idempotency-Key header is required. */
  idempotent?: boolean;
}

export interface PublicRequest<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  idempotencyKey: string;
}

/** Who is calling: only ever taken from the verified token. */
export interface Caller {
  userId: string;
  email: string;
  /** When the caller signed in (the token's auth_time), ISO 8601. */
  signedInAt: string;
}

export interface UserRequest<B, Q> extends PublicRequest<B, Q> {
  caller: Caller;
  /** The route as API Gateway names it, e.g. 'POST /generate-ai-image'. */
  routeKey: string;
}

/** A response other than 200 with a JSON body. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

const UNAUTHORIZED = new AppError(401, 'UNAUTHORIZED', 'Please sign in to continue.');

/**
 * Every id of ours is far shorter. A longer path parameter names nothing, and passed on it would be a DynamoDB key
 * over the key size limit (a ValidationException, that is, a 500).
 */
export const PATH_PARAM_MAX_LENGTH = 256;

export function userRoute<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  spec: RouteSpec<B, Q>,
  run: (request: UserRequest<z.infer<B>, z.infer<Q>>) => Promise<unknown>,
): HttpHandler {
  return wrap(async (event) => {
    const caller = callerOf(event);
    const request = parseRequest(spec, event);
    return run({ ...request, caller, routeKey: event.routeKey });
  });
}

export function publicRoute<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  spec: RouteSpec<B, Q>,
  run: (request: PublicRequest<z.infer<B>, z.infer<Q>>) => Promise<unknown>,
): HttpHandler {
  return wrap(async (event) => run(parseRequest(spec, event)));
}

function wrap(run: (event: HttpEvent) => Promise<unknown>): HttpHandler {
  return async (event) => {
    try {
      const result = await run(event);
      return result instanceof Reply ? json(result.status, result.body) : json(200, result);
    } catch (error) {
      if (error instanceof AppError) return json(error.status, { error: error.message, code: error.code }, error.headers);
      log.error('unhandled error', { route: event.routeKey, requestId: event.requestContext?.requestId, error });
      return json(500, { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' });
    }
  };
}

/** The caller comes only from the claims the JWT authorizer verified, never from the request itself. */
function callerOf(event: HttpEvent): Caller {
  const claims = (event as APIGatewayProxyEventV2WithJWTAuthorizer).requestContext.authorizer?.jwt?.claims;
  const sub = claims?.sub;
  // Only an ID token names a user here; an access token of the same pool (token_use 'access') or a token that
  // doesn't say what it is, is refused on both hosts.
  if (typeof sub !== 'string' || !sub || claims?.token_use !== 'id') throw UNAUTHORIZED;
  const authTime = Number(claims?.auth_time ?? claims?.iat);
  return {
    userId: sub,
    email: typeof claims?.email === 'string' ? claims.email : '',
    signedInAt: new Date(Number.isFinite(authTime) ? authTime * 1000 : Date.now()).toISOString(),
  };
}

function parseRequest<B extends z.ZodType, Q extends z.ZodType>(
  spec: RouteSpec<B, Q>,
  event: HttpEvent,
): PublicRequest<z.infer<B>, z.infer<Q>> {
  const idempotencyKey = headerOf(event, IDEMPOTENCY_HEADER);
  if (spec.idempotent) {
    if (!idempotencyKey) throw new AppError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'The Idempotency-Key header is required for this request.');
    validate(IdempotencyKey, idempotencyKey);
  }
  return {
    body: (spec.body ? validate(spec.body, parseJson(event)) : undefined) as z.infer<B>,
    query: (spec.query ? validate(spec.query, event.queryStringParameters ?? {}) : undefined) as z.infer<Q>,
    params: pathParams(event),
    idempotencyKey: idempotencyKey ?? '',
  };
}

function pathParams(event: HttpEvent): Record<string, string> {
  const params = (event.pathParameters ?? {}) as Record<string, string>;
  if (Object.values(params).some((value) => value.length > PATH_PARAM_MAX_LENGTH)) throw notFound();
  return params;
}

function parseJson(event: HttpEvent): unknown {
  if (!event.body) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
}

function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const message = issue?.message ?? 'The request is not valid.';
  throw new AppError(400, 'VALIDATION_ERROR', message);
}

function headerOf(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResultV2 {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

