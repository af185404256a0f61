// Contract tests of the FASHN-compatible on-model adapter against a fake FASHN API on 127.0.0.1 (a free port),
// and of the API key read from a mocked Secrets Manager. Nothing leaves the machine.
import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyFromSecret, createApiKeyReader } from '../../lambdas/providers/fashn/api-key.js';
import {
  createFashnOnModel,
  DEFAULT_DEADLINE_MS,
  FASHN_LONGEST_JOB_MS,
  type FashnOnModelOptions,
} from '../../lambdas/providers/fashn/fashn-on-model.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { checkedOutputUrl, hostsVouchedForBy } from '../../lambdas/providers/fashn/outputs.js';
import { TEST_FETCH_TARGETS_ENV } from '../../lambdas/net/safe-fetch.js';
import { fashnPrompt, nearestAspectRatio } from '../../lambdas/providers/fashn/product-to-model.js';
import { CONTENT_POLICY_MESSAGE, ProviderError, type OnModelImageRequest, type ProviderJobMemory } from '../../lambdas/providers/ports.js';
import { json, readBody } from '../support/loopback-http.js';

const API_KEY = 'fa-test-key-123';
const secrets = mockClient(SecretsManagerClient);

/** What the fake API answers for one test. */
interface Scenario {
  run?: (body: { model_name?: string; inputs?: Record<string, unknown> }) => { status: number; body: unknown };
  /** Status answers in order; the last one repeats. */
  statuses: unknown[];
  /** The CDN's answer for the output file (default: the PNG, labelled image/png). */
  cdn?: { contentType: string; body?: Buffer };
}

let server: Server;
let baseUrl: string;
let scenario: Scenario;
let runBodies: Array<{ model_name?: string; inputs?: Record<string, unknown> }>;
let statusCalls: number;
let outputFetches: number;
let outputImage: Buffer;

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', baseUrl);
  if (url.pathname.startsWith('/cdn/')) {
    outputFetches += 1;
    const body = scenario.cdn?.body ?? outputImage;
    response.writeHead(200, { 'Content-Type': scenario.cdn?.contentType ?? 'image/png', 'Content-Length': body.length }).end(body);
    return;
  }
  // The documented API-level error for a bad key: HTTP 401 { error: "UnauthorizedAccess", message }.
  if (request.headers.authorization !== `Bearer ${API_KEY}`) {
    json(response, 401, { error: 'UnauthorizedAccess', message: 'Unauthorized: Invalid token' });
    return;
  }
  // test-guard: the fake's request router; the providers helper moves this header check into the tests (issue 52).
  if (request.method === 'POST' && url.pathname === '/v1/run') {
    expect(request.headers['content-type']).toBe('application/json');
    const body = JSON.parse(await readBody(request)) as { model_name?: string; inputs?: Record<string, unknown> };
    runBodies.push(body);
    const answer = scenario.run?.(body) ?? { status: 200, body: { id: 'pred-1', error: null } };
    json(response, answer.status, answer.body);
    return;
  }
  if (request.method === 'GET' && url.pathname === '/v1/status/pred-1') {
    const answer = scenario.statuses[Math.min(statusCalls, scenario.statuses.length - 1)];
    statusCalls += 1;
    json(response, 200, answer);
    return;
  }
  json(response, 404, { error: 'NotFound', message: 'Resource not found' });
}

beforeAll(async () => {
  outputImage = await sharp({ create: { width: 500, height: 900, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
  server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(599).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The output download goes through the fetch guard, which opens this loopback port only by explicit test allowance.
  process.env[TEST_FETCH_TARGETS_ENV] = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env[TEST_FETCH_TARGETS_ENV];
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  secrets.reset();
  secrets.on(GetSecretValueCommand).resolves({ SecretString: API_KEY });
  runBodies = [];
  statusCalls = 0;
  outputFetches = 0;
  scenario = { statuses: [completed()] };
});

function completed(outputUrl?: string) {
  return { id: 'pred-1', status: 'completed', output: [outputUrl ?? `${baseUrl}/cdn/pred-1/output_0.png`], error: null };
}

function adapter(overrides: Partial<FashnOnModelOptions> = {}) {
  return createFashnOnModel({
    baseUrl,
    apiKey: createApiKeyReader(new SecretsManagerClient({ region: 'us-east-1' }), 'modelloop/fashn-api-key'),
    allowInsecureHttp: true,
    pollIntervalMs: 5,
    deadlineMs: 5_000,
    ...overrides,
  });
}

async function request(overrides: Partial<OnModelImageRequest> = {}): Promise<OnModelImageRequest> {
  const bytes = await sharp({ create: { width: 400, height: 600, channels: 3, background: { r: 250, g: 250, b: 250 } } }).png().toBuffer();
  return {
    product: { bytes, mimeType: 'image/png' },
    productType: 'clothing',
    model: { description: 'young woman with curly hair', seed: 1 },
    cameraZoom: 'full-body',
    size: { width: 720, height: 1280 },
    aspectRatio: '9:16',
    promptEnhance: false,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('FASHN on-model adapter', () => {
  it('runs product-to-model with the documented body, polls the status transitions and returns the exact size', async () => {
    scenario = {
      statuses: [
        { id: 'pred-1', status: 'starting', output: null, error: null },
        { id: 'pred-1', status: 'in_queue', output: null, error: null },
        { id: 'pred-1', status: 'processing', output: null, error: null },
        completed(),
      ],
    };
    const input = await request();

    const output = await adapter().generate(input);

    expect(runBodies).toHaveLength(1);
    expect(runBodies[0]).toEqual({
      model_name: 'product-to-model',
      inputs: {
        product_image: `data:image/png;base64,${input.product.bytes.toString('base64')}`,
        prompt: 'young woman with curly hair, full body shot, head to toe',
        aspect_ratio: '9:16',
        resolution: '1k',
        output_format: 'png',
        return_base64: false,
        seed: 1,
      },
    });
    expect(statusCalls).toBe(4);
    expect(outputFetches).toBe(1);
    expect(output).toMatchObject({ mimeType: 'image/png', width: 720, height: 1280, model: 'fashn:product-to-model' });
    const meta = await sharp(output.bytes).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([720, 1280, 'png']);
  });

  it("sends a saved model's portrait as face_reference with the model's seed, keeping the prompt's pose", async () => {
    const portrait = await sharp({ create: { width: 240, height: 320, channels: 3, background: { r: 120, g: 80, b: 60 } } }).jpeg().toBuffer();
    const input = await request({
      model: { description: 'woman with curly black hair', seed: 1_234_567, modelId: 'model-1', referenceImage: { bytes: portrait, mimeType: 'image/jpeg' } },
    });

    await adapter().generate(input);

    expect(runBodies).toHaveLength(1);
    expect(runBodies[0]!.model_name).toBe('product-to-model');
    expect(runBodies[0]!.inputs).toMatchObject({
      product_image: `data:image/png;base64,${input.product.bytes.toString('base64')}`,
      prompt: 'woman with curly black hair, full body shot, head to toe',
      seed: 1_234_567,
      face_reference: `data:image/jpeg;base64,${portrait.toString('base64')}`,
      face_reference_mode: 'match_base',
    });
    // model_image is mutually exclusive with face_reference: it is never sent.
    expect(runBodies[0]!.inputs).not.toHaveProperty('model_image');
  });

  it('sends no face_reference for a model without a portrait', async () => {
    await adapter().generate(await request({ model: { description: 'a tall man', seed: 42, modelId: 'model-2' } }));
    expect(runBodies[0]!.inputs).toMatchObject({ seed: 42 });
    expect(runBodies[0]!.inputs).not.toHaveProperty('face_reference');
    expect(runBodies[0]!.inputs).not.toHaveProperty('face_reference_mode');
  });

  it('reads the API key from Secrets Manager once per container', async () => {
    const port = adapter();
    await port.generate(await request());
    await port.generate(await request());
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(secrets.commandCalls(GetSecretValueCommand)[0]!.args[0].input).toEqual({ SecretId: 'modelloop/fashn-api-key' });
  });

  it('sends a wrong key as the server expects and maps its 401 to failed', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'wrong-key' });
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe('failed');
    expect(error.message).not.toContain('Unauthorized');
  });

  it('maps a ContentModerationError to the content policy error without the provider message', async () => {
    scenario = {
      statuses: [
        { id: 'pred-1', status: 'failed', output: null, error: { name: 'ContentModerationError', message: 'Prohibited content detected in product image' } },
      ],
    };
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe('content_policy');
    expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
  });

  it.each([
    ['PipelineError', 'transient'],
    ['InternalServerError', 'transient'],
    ['ImageLoadError', 'failed'],
    ['ThirdPartyError', 'failed'],
  ])('maps a failed prediction with %s to %s', async (name, kind) => {
    scenario = { statuses: [{ id: 'pred-1', status: 'failed', output: null, error: { name, message: `secret detail of ${name}` } }] };
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain('secret detail');
  });

  it.each([
    [429, 'RateLimitExceeded', 'transient'],
    [429, 'ConcurrencyLimitExceeded', 'transient'],
    [429, 'OutOfCredits', 'failed'],
    [500, 'InternalServerError', 'transient'],
    [400, 'BadRequest', 'failed'],
  ])('maps an HTTP %i %s from /v1/run to %s', async (status, name, kind) => {
    scenario = { run: () => ({ status, body: { error: name, message: 'provider says no' } }), statuses: [completed()] };
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe(kind);
    expect(statusCalls).toBe(0);
  });

  it('gives up at the deadline with a transient error', async () => {
    scenario = { statuses: [{ id: 'pred-1', status: 'processing', output: null, error: null }] };
    const error = await rejection(adapter({ deadlineMs: 200, pollIntervalMs: 20 }).generate(await request()));
    expect(error.kind).toBe('transient');
    expect(statusCalls).toBeGreaterThan(1);
    expect(outputFetches).toBe(0);
  });

  it('waits for a job as long as FASHN documents one may take, inside the budget of the task that calls it', () => {
    // "Product to Model": 20–120 s per job. The Process task (and the batch's MakePhoto) then stores the picture.
    expect(DEFAULT_DEADLINE_MS).toBeGreaterThanOrEqual(FASHN_LONGEST_JOB_MS);
    for (const task of [WORKFLOWS.generation.tasks.Process, WORKFLOWS.batch.tasks.MakePhoto]) {
      expect(DEFAULT_DEADLINE_MS).toBeLessThanOrEqual(task.timeoutSeconds * 1000 - 30_000);
    }
  });

  it('never pays for a second job: the prediction id is remembered before polling, and a retry polls that prediction', async () => {
    const remembered: string[] = [];
    const memory = (): ProviderJobMemory => ({ started: remembered.at(-1), remember: async (id) => void remembered.push(id) });
    scenario = { statuses: [{ id: 'pred-1', status: 'processing', output: null, error: null }] };
    const first = await rejection(adapter({ deadlineMs: 200, pollIntervalMs: 20 }).generate(await request(), memory()));
    expect(first.kind).toBe('transient');
    expect(remembered).toEqual(['pred-1']);

    // The workflow retries the task: the same photo, the job now done.
    scenario = { statuses: [completed()] };
    statusCalls = 0;
    const output = await adapter().generate(await request(), memory());
    expect(runBodies).toHaveLength(1);
    expect(statusCalls).toBe(1);
    expect(output).toMatchObject({ width: 720, height: 1280, model: 'fashn:product-to-model' });
    expect(remembered).toEqual(['pred-1']);
  });

  it('a remembered prediction that failed is reported as its error, and nothing new is started', async () => {
    scenario = { statuses: [{ id: 'pred-1', status: 'failed', output: null, error: { name: 'ContentModerationError', message: 'x' } }] };
    const error = await rejection(adapter().generate(await request(), { started: 'pred-1', remember: async () => undefined }));
    expect(error.kind).toBe('content_policy');
    expect(runBodies).toHaveLength(0);
  });

  it('accepts the CDN answer by the picture bytes, whatever content type it states', async () => {
    scenario = { statuses: [completed()], cdn: { contentType: 'application/octet-stream' } };
    const output = await adapter().generate(await request());
    expect([output.width, output.height]).toEqual([720, 1280]);
    expect(outputFetches).toBe(1);
  });

  it('refuses a CDN answer that is no picture even when it is labelled image/png', async () => {
    scenario = { statuses: [completed()], cdn: { contentType: 'image/png', body: Buffer.from('<html>Access denied</html>') } };
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe('failed');
  });

  it('refuses an output on a foreign host', async () => {
    scenario = { statuses: [completed('https://attacker.example/steal.png')] };
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe('failed');
  });

  it('downloads the output through the fetch guard: a loopback output is refused without the test allowance', async () => {
    const allowance = process.env[TEST_FETCH_TARGETS_ENV];
    delete process.env[TEST_FETCH_TARGETS_ENV];
    try {
      const error = await rejection(adapter().generate(await request()));
      expect(error.kind).toBe('failed');
      expect(outputFetches).toBe(0);
    } finally {
      process.env[TEST_FETCH_TARGETS_ENV] = allowance;
    }
  });

  it('refuses a plain-http output unless http is explicitly allowed', () => {
    const api = new URL('https://api.fashn.ai/');
    const strict = { allowedHosts: hostsVouchedForBy(api), allowInsecureHttp: false };
    expect(checkedOutputUrl('https://cdn.fashn.ai/pred-1/output_0.png', strict).hostname).toBe('cdn.fashn.ai');
    expect(() => checkedOutputUrl('http://cdn.fashn.ai/pred-1/output_0.png', strict)).toThrow(ProviderError);
    expect(() => checkedOutputUrl('file:///etc/passwd', strict)).toThrow(ProviderError);
    expect(() => checkedOutputUrl('https://user:pw@cdn.fashn.ai/x.png', strict)).toThrow(ProviderError);
    expect(() => createFashnOnModel({ baseUrl, apiKey: async () => API_KEY })).toThrow(/https/);
  });

  it('accepts outputs from the API host and its parent domain only', () => {
    const allowed = hostsVouchedForBy(new URL('https://api.fashn.ai/'), ['images.partner.example']);
    expect(['api.fashn.ai', 'cdn.fashn.ai', 'fashn.ai', 'images.partner.example'].every(allowed)).toBe(true);
    expect(['fashn.ai.evil.example', 'evilfashn.ai', '169.254.169.254', 'localhost'].some(allowed)).toBe(false);
    const local = hostsVouchedForBy(new URL('http://127.0.0.1:9999/'));
    expect(local('127.0.0.1')).toBe(true);
    expect(local('127.0.0.2')).toBe(false);
  });

  it('accepts a base64 output without fetching anything', async () => {
    scenario = { statuses: [completed(`data:image/png;base64,${outputImage.toString('base64')}`)] };
    const output = await adapter().generate(await request({ size: { width: 1440, height: 2560 } }));
    expect([output.width, output.height]).toEqual([1440, 2560]);
    expect(outputFetches).toBe(0);
    expect(runBodies[0]!.inputs!.resolution).toBe('2k');
  });
});

describe('FASHN request details', () => {
  it('describes framing, jewelry and enhancement in the prompt', () => {
    expect(fashnPrompt({ model: { description: ' man with tattoos ', seed: 1 }, productType: 'jewelry', cameraZoom: 'close-up', promptEnhance: true })).toBe(
      'man with tattoos, close-up shot, the jewelry clearly visible and in sharp focus, ' +
        'professional e-commerce fashion photograph, soft studio lighting, clean background',
    );
    expect(fashnPrompt({ model: { description: 'model', seed: 1 }, productType: 'clothing', cameraZoom: 'auto', promptEnhance: false })).toBe('model');
  });

  it('picks the nearest documented aspect ratio', () => {
    expect(nearestAspectRatio({ width: 720, height: 1280 })).toBe('9:16');
    expect(nearestAspectRatio({ width: 1000, height: 1000 })).toBe('1:1');
    expect(nearestAspectRatio({ width: 1200, height: 1500 })).toBe('4:5');
  });

  it('reads the key from a raw or JSON secret', () => {
    expect(apiKeyFromSecret(' fa-raw ')).toBe('fa-raw');
    expect(apiKeyFromSecret('{"apiKey":"fa-json"}')).toBe('fa-json');
    expect(apiKeyFromSecret('{"api_key":"fa-snake"}')).toBe('fa-snake');
    expect(apiKeyFromSecret('{"other":"x"}')).toBeNull();
    expect(apiKeyFromSecret(undefined)).toBeNull();
  });

  it('retries a failed secret read on the next call instead of caching the failure', async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(new ResourceNotFoundException({ message: "Secrets Manager can't find the specified secret.", $metadata: {} }))
      .resolves({ SecretString: API_KEY });
    const read = createApiKeyReader(new SecretsManagerClient({ region: 'us-east-1' }), 'missing');
    const error = await rejection(read());
    expect(error.kind).toBe('failed');
    expect(error.message).not.toContain('Secrets Manager');
    expect(await read()).toBe(API_KEY);
  });
});
