// The one HTTP wrapper. Handlers declare what they accept and return data; this turns an API Gateway HTTP API
// (payload v2) event into a typed request — the caller from the verified token only, the body and query parsed with
// zod, the Idempotency-Key checked — and every outcome into a JSON response. Typed errors answer with their status
// and stable code; anything else is logged and answered with a message that reveals nothing inside.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod';
import { ACCOUNT_MESSAGES } from '../contracts/account.js';
import { IDEMPOTENCY_HEADER, IdempotencyKey } from '../contracts/api.js';
import type { BodyOf, QueryOf, RouteContract } from '../contracts/route.js';
import { AppError, notFound } from './errors.js';
import { appendLogKeys, log, withLogKeys } from './log.js';

type HttpEvent = APIGatewayProxyEventV2 | APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpHandler = (event: HttpEvent) => Promise<APIGatewayProxyResultV2>;

interface RouteSpec<B extends z.ZodType, Q extends z.ZodType> {
  body?: B;
  query?: Q;
  /** Spending requests: an Idempotency-Key header is required. */
  idempotent?: boolean;
  /** The success status (200 unless said). */
  status?: number;
}

export interface PublicRequest<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  idempotencyKey: string;
}

/** Who is calling: only ever taken from the verified token or from what the API-key authorizer found. */
export interface Caller {
  userId: string;
  email: string;
  /** When the caller signed in (the token's auth_time), ISO 8601; the epoch for a key (a key call is no sign-in). */
  signedInAt: string;
  /**
   * The user's name in the pool (the ID token's `cognito:username`): the sub for a user who signed up with an e-mail,
   * `Google_<id>` for one who signed in with Google. Absent for a key.
   */
  username?: string;
  /** The token says the e-mail address is verified (`email_verified`); false for a key. */
  emailVerified?: boolean;
  /** Set when the call came through the public API with an API key (its id, never the secret). */
  apiKeyId?: string;
}

/**
 * What the API-key authorizer hands on (payload v2 `requestContext.authorizer.lambda`): the key's owner and id, or
 * the stable code of why the key was refused. It always lets the request through, so that a refused key is answered
 * here with a 401 and a code a program can test, the same way on both hosts.
 */
export interface ApiKeyAuthorizerContext {
  userId?: string;
  keyId?: string;
  denied?: string;
}

/**
 * Runs before every user route, whoever calls (an ID token or an API key): refuses an account that is being deleted
 * or was deleted (401 ACCOUNT_DELETED) and a key revoked since the authorizer's cached answer (401 API_KEY_REVOKED),
 * and counts a key's rate. Installed by the domain (core reads no table), never by core; without it the wrapper
 * refuses every call.
 */
export type CallerGate = (caller: Caller) => Promise<void>;
let callerGate: CallerGate | undefined;
export function installCallerGate(gate: CallerGate): void {
  callerGate = gate;
}

const API_KEY_DENIALS: Record<string, string> = {
  API_KEY_MALFORMED: 'The API key is not in the form ml_ followed by 32 letters and digits.',
  API_KEY_INVALID: 'The API key is not valid.',
  API_KEY_REVOKED: 'The API key was revoked.',
  ACCOUNT_DELETED: ACCOUNT_MESSAGES.deleted,
};

/** The 401 a refused key is answered with: its stable code and what it means. */
export const apiKeyDenied = (code: string) => new AppError(401, code, API_KEY_DENIALS[code] ?? API_KEY_DENIALS.API_KEY_INVALID!);

export interface UserRequest<B, Q> extends PublicRequest<B, Q> {
  caller: Caller;
  /** The route as API Gateway names it, e.g. 'POST /generate-ai-image'. */
  routeKey: string;
}

/** A response other than 200 with a JSON body, or one that sets cookies (payload v2's `cookies`). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly options: { cookies?: string[] } = {},
  ) {}
}

const UNAUTHORIZED = new AppError(401, 'UNAUTHORIZED', 'Please sign in to continue.');

/**
 * Every id of ours is far shorter. A longer path parameter names nothing, and passed on it would be a DynamoDB key
 * over the key size limit (a ValidationException, that is, a 500).
 */
export const PATH_PARAM_MAX_LENGTH = 256;

/** What a route's handler is given: a user route's request carries the verified caller. */
export type RouteRequest<R extends RouteContract> = R['auth'] extends 'user' ? UserRequest<BodyOf<R>, QueryOf<R>> : PublicRequest<BodyOf<R>, QueryOf<R>>;

/**
 * The handler of a route, built from its contract (lambdas/contracts/<feature>.ts): the body and query are parsed with
 * its schemas, an Idempotency-Key is required when it spends, a user route runs the caller gate first, and what `run`
 * returns is answered with the route's success status (a `Reply` chooses its own).
 */
export function route<R extends RouteContract>(contract: R, run: (request: RouteRequest<R>) => Promise<unknown>): HttpHandler {
  const spec = { body: contract.body, query: contract.query, idempotent: contract.idempotent, status: contract.status };
  const answer = run as (request: UserRequest<unknown, unknown> | PublicRequest<unknown, unknown>) => Promise<unknown>;
  return contract.auth === 'user' ? userRoute(spec, answer) : publicRoute(spec, answer);
}

/**
 * The handler of a public route that answers on its own: one that must read the raw body (a signature over it) or
 * answers something other than JSON (a redirect). The request's log keys are set; an error escaping `run` is logged
 * and answered 500 with a message that reveals nothing (the sender retries).
 */
export function rawRoute<R extends RouteContract & { auth: 'public' }>(contract: R, run: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyResultV2>): HttpHandler {
  return (event) =>
    withLogKeys({ requestId: event.requestContext?.requestId, route: event.routeKey }, async () => {
      try {
        return await run(event);
      } catch (error) {
        log.error(`${contract.method} ${contract.path} failed`, { error });
        return json(500, { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' });
      }
    });
}

function userRoute<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  spec: RouteSpec<B, Q>,
  run: (request: UserRequest<z.infer<B>, z.infer<Q>>) => Promise<unknown>,
): HttpHandler {
  return wrap(spec.status, async (event) => {
    const caller = callerOf(event);
    appendLogKeys({ userId: caller.userId });
    // Fails closed: a handler that forgot to install the gate answers 500, never a call the gate would refuse.
    if (!callerGate) throw new Error('the caller gate is not installed for this handler');
    await callerGate(caller);
    const request = parseRequest(spec, event);
    return run({ ...request, caller, routeKey: event.routeKey });
  });
}

function publicRoute<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  spec: RouteSpec<B, Q>,
  run: (request: PublicRequest<z.infer<B>, z.infer<Q>>) => Promise<unknown>,
): HttpHandler {
  return wrap(spec.status, async (event) => run(parseRequest(spec, event)));
}

function wrap(status: number | undefined, run: (event: HttpEvent) => Promise<unknown>): HttpHandler {
  return (event) =>
    // Every line of the request carries its id and route (and, once verified, the caller as a hash).
    withLogKeys({ requestId: event.requestContext?.requestId, route: event.routeKey }, async () => {
      try {
        const result = await run(event);
        if (!(result instanceof Reply)) return json(status ?? 200, result);
        const answer = json(result.status, result.body);
        return result.options.cookies?.length ? { ...answer, cookies: result.options.cookies } : answer;
      } catch (error) {
        if (error instanceof AppError) {
          log.debug('request refused', { status: error.status, code: error.code });
          return json(error.status, { error: error.message, code: error.code }, error.headers);
        }
        log.error('unhandled error', { error });
        return json(500, { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' });
      }
    });
}

/**
 * The caller comes only from what an authorizer verified, never from the request itself: the claims of the JWT
 * authorizer (an ID token) or the context of the API-key authorizer (the key's owner).
 */
function callerOf(event: HttpEvent): Caller {
  const keyContext = (event.requestContext as { authorizer?: { lambda?: ApiKeyAuthorizerContext } }).authorizer?.lambda;
  if (keyContext) {
    if (keyContext.denied) throw apiKeyDenied(keyContext.denied);
    if (typeof keyContext.userId !== 'string' || !keyContext.userId || typeof keyContext.keyId !== 'string') throw UNAUTHORIZED;
    return { userId: keyContext.userId, email: '', signedInAt: new Date(0).toISOString(), apiKeyId: keyContext.keyId };
  }
  const claims = (event as APIGatewayProxyEventV2WithJWTAuthorizer).requestContext.authorizer?.jwt?.claims;
  const sub = claims?.sub;
  // Only an ID token names a user here; an access token of the same pool (token_use 'access') or a token that
  // doesn't say what it is, is refused on both hosts.
  if (typeof sub !== 'string' || !sub || claims?.token_use !== 'id') throw UNAUTHORIZED;
  const authTime = Number(claims?.auth_time ?? claims?.iat);
  const username = claims?.['cognito:username'];
  return {
    userId: sub,
    email: typeof claims?.email === 'string' ? claims.email : '',
    signedInAt: new Date(Number.isFinite(authTime) ? authTime * 1000 : Date.now()).toISOString(),
    ...(typeof username === 'string' && username ? { username } : {}),
    // API Gateway hands every claim on as a string.
    emailVerified: claims?.email_verified === true || claims?.email_verified === 'true',
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
  // A contract's refinement may name its own stable code and status (`params: { code, status }`), e.g.
  // CONTROL_CHARACTERS (400) or INLINE_IMAGE_TOO_LARGE (413); the rest are VALIDATION_ERROR.
  const coded = issue?.code === 'custom' ? (issue.params as { code?: string; status?: number } | undefined) : undefined;
  throw new AppError(coded?.status ?? 400, coded?.code ?? 'VALIDATION_ERROR', message);
}

function headerOf(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

