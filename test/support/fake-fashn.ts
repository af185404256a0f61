// A contract fake of FASHN's API on 127.0.0.1 (a free port), written from FASHN's documents, read 2026-11-27:
//   "API Fundamentals" (https://docs.fashn.ai/api-overview/api-fundamentals)
//     POST /v1/run  Authorization: Bearer <key>, Content-Type: application/json, { model_name, inputs }
//                   → 200 { "id": "<prediction id>", "error": null }
//     GET  /v1/status/{id} → 200 { id, status: "starting" | "in_queue" | "processing" | "completed" | "failed",
//                   output: ["https://cdn.fashn.ai/<id>/output_0.png"] | null, error: null | { name, message } }
//   "Error Handling" (https://docs.fashn.ai/api-overview/error-handling)
//     API-level errors "return an HTTP status code and do not include an id or status": 400 BadRequest ("Invalid
//     request format"), 401 UnauthorizedAccess ({ "error": "UnauthorizedAccess", "message": "Unauthorized: Invalid
//     token" }), 404 NotFound, 429 RateLimitExceeded / ConcurrencyLimitExceeded / OutOfCredits, 500
//     InternalServerError. Runtime errors "appear with status: "failed" when you poll /v1/status/{id} (HTTP 200)"
//     with an error object { name, message }; among them ThirdPartyError and UnavailableError, both "Retry with
//     backoff", and PipelineError, "Retry request (no charge for failures)" (the official TypeScript SDK's
//     PredictionStatusResponse.Error, fashn-AI/fashn-typescript-sdk src/resources/predictions.ts).
//   The official SDK reads the credits a prediction consumed from the header `x-fashn-credits-used` of the status
//     answer (`const CREDITS_HEADER = 'x-fashn-credits-used'`, result.creditsUsed); a failed prediction is not billed.
//   Credits per product-to-model output image: "1-5 per output image depending on resolution and generation_mode (+3
//     per output image with face_reference)"; an omitted generation_mode "is currently billed as 'fast' at 1k and as
//     'balanced' at 2k or 4k" (https://docs.fashn.ai/api-reference/product-to-model). The fake bills the dated table's
//     credits (lambdas/providers/fashn/model-table.ts) for the mode the table sends at each resolution (or none), and
//     the documented most, 5, for any other mode: a request that strays from the table is billed above it.
//   GET /v1/credits → { credits: { total, subscription, on_demand } } ("Credits", https://docs.fashn.ai/utility-endpoints/credits).
// Only the model names the table lists are run: any other is refused with 400 BadRequest, as FASHN refuses a request it
// cannot validate. The fake records what it was sent (the body, and the Content-Type header, for tests to assert) and
// never asserts anything itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { FASHN_MODELS, type FashnResolution } from '../../lambdas/providers/fashn/model-table.js';
import { json, readBody } from './loopback-http.js';

export const FAKE_FASHN_API_KEY = 'fa-fake-key-for-tests';
export const CREDITS_USED_HEADER = 'x-fashn-credits-used';
/** The most credits FASHN documents for one product-to-model image before a face reference. */
const MOST_CREDITS = 5;

/**
 * Runtime errors the fake can answer, with a message: ImageLoadError's is the documents' own example; the others are the
 * fake's words (FASHN documents the names, and the adapters pass no provider message on).
 */
export const RUNTIME_ERRORS = {
  ImageLoadError: 'Error loading model image: Invalid URL format',
  ContentModerationError: 'Prohibited content detected in product image',
  PipelineError: 'An unexpected error occurred in the pipeline',
  ThirdPartyError: 'A third-party service the model relies on failed',
  UnavailableError: 'The service is temporarily unavailable',
  InternalServerError: 'Internal server error',
} as const;
export type RuntimeErrorName = keyof typeof RUNTIME_ERRORS;

/** How one prediction ends: done (with an output URL, or the fake's own), or failed with a documented runtime error. */
export type Outcome = { status: 'completed'; output?: string } | { status: 'failed'; error: RuntimeErrorName };

export interface FakeFashnRun {
  id: string;
  model_name: string;
  inputs: Record<string, unknown>;
  /** The request's Content-Type header. */
  contentType: string | undefined;
  outcome: Outcome;
  /** The credits the prediction is billed when it completes. */
  credits: number;
  checks: number;
}

export interface FakeFashn {
  baseUrl: string;
  /** Every accepted run, in order (a refused one is in `refused`). */
  runs: FakeFashnRun[];
  refused: Array<{ model_name: unknown; status: number; error: string }>;
  statusCalls: number;
  outputFetches: number;
  /** Status answers before the last one, in order ("starting", "in_queue", "processing"; default none). */
  pending: string[];
  /** How the next predictions end, one each in order; after them `outcome`. */
  outcomes: Outcome[];
  /** How a prediction ends when `outcomes` is empty (default completed). */
  outcome: (run: Omit<FakeFashnRun, 'outcome' | 'credits' | 'checks' | 'id'>) => Outcome;
  /** Credits to bill instead of the documented ones (FASHN changing its prices). */
  bill?: (run: Omit<FakeFashnRun, 'outcome' | 'credits' | 'checks' | 'id'>) => number;
  /** An API-level error answered to the next run requests instead of starting them (e.g. 429 RateLimitExceeded). */
  runErrors: Array<{ status: number; error: string }>;
  /** The CDN's answer for outputs (default: `image`, labelled image/png). */
  cdn?: { contentType: string; body?: Buffer };
  /** The output picture the CDN serves. */
  image: Buffer;
  /** Credits left, answered by GET /v1/credits. */
  credits: number;
  close(): Promise<void>;
}

/** The credits FASHN bills one completed run: the table's at the table's mode, the documented most otherwise. */
function creditsOf(modelName: string, inputs: Record<string, unknown>): number {
  const model = FASHN_MODELS[modelName as keyof typeof FASHN_MODELS];
  if (model?.kind !== 'image') return 0;
  const resolution = (['1k', '2k', '4k'].includes(String(inputs.resolution)) ? inputs.resolution : '1k') as FashnResolution;
  const row = model.credits[resolution];
  const mode = inputs.generation_mode;
  const base = mode === undefined || mode === row.mode ? row.credits : MOST_CREDITS;
  return base + (inputs.face_reference ? model.faceReferenceCredits : 0);
}

export async function startFakeFashn(options: { apiKey?: string } = {}): Promise<FakeFashn> {
  const apiKey = options.apiKey ?? FAKE_FASHN_API_KEY;
  const image = await sharp({ create: { width: 500, height: 900, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
  const fake: FakeFashn = {
    baseUrl: '',
    runs: [],
    refused: [],
    statusCalls: 0,
    outputFetches: 0,
    pending: [],
    outcomes: [],
    outcome: () => ({ status: 'completed' }),
    runErrors: [],
    image,
    credits: 1000,
    close: async () => undefined,
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', fake.baseUrl);
    if (url.pathname.startsWith('/cdn/')) {
      fake.outputFetches += 1;
      const body = fake.cdn?.body ?? fake.image;
      response.writeHead(200, { 'Content-Type': fake.cdn?.contentType ?? 'image/png', 'Content-Length': body.length }).end(body);
      return;
    }
    if (request.headers.authorization !== `Bearer ${apiKey}`) return json(response, 401, { error: 'UnauthorizedAccess', message: 'Unauthorized: Invalid token' });
    if (request.method === 'POST' && url.pathname === '/v1/run') {
      const text = await readBody(request);
      let body: { model_name?: unknown; inputs?: unknown };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        return json(response, 400, { error: 'BadRequest', message: 'Invalid request format' });
      }
      const refuse = (status: number, error: string, message: string) => {
        fake.refused.push({ model_name: body.model_name, status, error });
        json(response, status, { error, message });
      };
      const apiError = fake.runErrors.shift();
      if (apiError) return refuse(apiError.status, apiError.error, `${apiError.error} (fake)`);
      if (typeof body.model_name !== 'string' || !Object.hasOwn(FASHN_MODELS, body.model_name)) {
        return refuse(400, 'BadRequest', `Invalid model_name: ${String(body.model_name)}`);
      }
      if (!body.inputs || typeof body.inputs !== 'object') return refuse(400, 'BadRequest', 'inputs is required');
      const inputs = body.inputs as Record<string, unknown>;
      const seen = { model_name: body.model_name, inputs, contentType: request.headers['content-type'] };
      const run: FakeFashnRun = {
        id: `pred-${fake.runs.length + 1}`,
        ...seen,
        outcome: fake.outcomes.shift() ?? fake.outcome(seen),
        credits: fake.bill?.(seen) ?? creditsOf(body.model_name, inputs),
        checks: 0,
      };
      fake.runs.push(run);
      return json(response, 200, { id: run.id, error: null });
    }
    const status = /^\/v1\/status\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && status) {
      fake.statusCalls += 1;
      const run = fake.runs.find((candidate) => candidate.id === decodeURIComponent(status[1]!));
      if (!run) return json(response, 404, { error: 'NotFound', message: 'Prediction not found or no longer tracked' });
      const pending = fake.pending[run.checks];
      run.checks += 1;
      if (pending) return json(response, 200, { id: run.id, status: pending, output: null, error: null });
      if (run.outcome.status === 'failed') {
        return json(response, 200, { id: run.id, status: 'failed', output: null, error: { name: run.outcome.error, message: RUNTIME_ERRORS[run.outcome.error] } });
      }
      const output = run.outcome.output ?? `${fake.baseUrl}/cdn/${run.id}/output_0.png`;
      response
        .writeHead(200, { 'Content-Type': 'application/json', [CREDITS_USED_HEADER]: String(run.credits) })
        .end(JSON.stringify({ id: run.id, status: 'completed', output: [output], error: null }));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/v1/credits') {
      return json(response, 200, { credits: { total: fake.credits, subscription: 0, on_demand: fake.credits } });
    }
    json(response, 404, { error: 'NotFound', message: 'Resource not found' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => response.writeHead(599).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** The fake's host:port, for the fetch guard's test allowance. */
export const fakeFashnTarget = (fake: FakeFashn): string => new URL(fake.baseUrl).host;
