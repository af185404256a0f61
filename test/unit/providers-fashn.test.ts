// Contract tests of the FASHN-compatible on-model adapter against a fake FASHN API on 127.0.0.1 (a free port),
// and of the API key read from a mocked Secrets Manager. Nothing leaves the machine.
import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from '../../lambdas/core/log.js';
import { FASHN_MODELS } from '../../lambdas/providers/fashn/model-table.js';
import { apiKeyFromSecret, createApiKeyReader } from '../../lambdas/providers/fashn/api-key.js';
import {
  createFashnOnModel,
  DEFAULT_DEADLINE_MS,
  DEFAULT_RETRY,
  FASHN_LONGEST_JOB_MS,
  type FashnOnModelOptions,
} from '../../lambdas/providers/fashn/fashn-on-model.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { checkedOutputUrl, hostsVouchedForBy } from '../../lambdas/providers/fashn/outputs.js';
import { TEST_FETCH_TARGETS_ENV } from '../../lambdas/net/safe-fetch.js';
import { fashnPrompt, nearestAspectRatio } from '../../lambdas/providers/fashn/product-to-model.js';
import { CONTENT_POLICY_MESSAGE, ProviderError, type OnModelImageRequest, type ProviderJobMemory } from '../../lambdas/providers/ports.js';
import { fakeFashnTarget, RUNTIME_ERRORS, startFakeFashn, type FakeFashn, type Outcome } from '../support/fake-fashn.js';

const API_KEY = 'fa-test-key-123';
const secrets = mockClient(SecretsManagerClient);

let fake: FakeFashn;
let baseUrl: string;

beforeAll(async () => {
  fake = await startFakeFashn({ apiKey: API_KEY });
  baseUrl = fake.baseUrl;
  // The output download goes through the fetch guard, which opens this loopback port only by explicit test allowance.
  process.env[TEST_FETCH_TARGETS_ENV] = fakeFashnTarget(fake);
});

afterAll(async () => {
  delete process.env[TEST_FETCH_TARGETS_ENV];
  await fake.close();
});

beforeEach(() => {
  secrets.reset();
  secrets.on(GetSecretValueCommand).resolves({ SecretString: API_KEY });
  Object.assign(fake, { runs: [], refused: [], statusCalls: 0, outputFetches: 0, pending: [], outcomes: [], runErrors: [], cdn: undefined });
  fake.outcome = () => ({ status: 'completed' });
  fake.bill = undefined;
});

/** A prediction this process does not start itself (one an earlier task attempt started), ending as `outcome`. */
function earlierPrediction(outcome: Outcome): string {
  fake.runs.push({ id: 'pred-earlier', model_name: 'product-to-model', inputs: {}, contentType: 'application/json', outcome, credits: 3, checks: 0 });
  return 'pred-earlier';
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
    fake.pending = ['starting', 'in_queue', 'processing'];
    const input = await request();

    const output = await adapter().generate(input);

    expect(fake.runs).toHaveLength(1);
    // FASHN reads a JSON body only when it is labelled so (the documents' every example sends the header).
    expect(fake.runs[0]!.contentType).toBe('application/json');
    expect({ model_name: fake.runs[0]!.model_name, inputs: fake.runs[0]!.inputs }).toEqual({
      model_name: 'product-to-model',
      inputs: {
        product_image: `data:image/png;base64,${input.product.bytes.toString('base64')}`,
        prompt: 'young woman with curly hair, full body shot, head to toe',
        aspect_ratio: '9:16',
        resolution: '1k',
        // Sent, never left to FASHN's default: the mode the dated table prices at 1k.
        generation_mode: 'fast',
        output_format: 'png',
        return_base64: false,
        seed: 1,
      },
    });
    expect(fake.statusCalls).toBe(4);
    expect(fake.outputFetches).toBe(1);
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

    expect(fake.runs).toHaveLength(1);
    expect(fake.runs[0]!.model_name).toBe('product-to-model');
    expect(fake.runs[0]!.inputs).toMatchObject({
      product_image: `data:image/png;base64,${input.product.bytes.toString('base64')}`,
      prompt: 'woman with curly black hair, full body shot, head to toe',
      seed: 1_234_567,
      face_reference: `data:image/jpeg;base64,${portrait.toString('base64')}`,
      face_reference_mode: 'match_base',
    });
    // model_image is mutually exclusive with face_reference: it is never sent.
    expect(fake.runs[0]!.inputs).not.toHaveProperty('model_image');
  });

  it('sends no face_reference for a model without a portrait', async () => {
    await adapter().generate(await request({ model: { description: 'a tall man', seed: 42, modelId: 'model-2' } }));
    expect(fake.runs[0]!.inputs).toMatchObject({ seed: 42 });
    expect(fake.runs[0]!.inputs).not.toHaveProperty('face_reference');
    expect(fake.runs[0]!.inputs).not.toHaveProperty('face_reference_mode');
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
    fake.outcomes = [{ status: 'failed', error: 'ContentModerationError' }];
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe('content_policy');
    expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
  });

  it.each([
    ['PipelineError', 'transient'],
    ['InternalServerError', 'transient'],
    ['ThirdPartyError', 'transient'],
    ['UnavailableError', 'transient'],
    ['ImageLoadError', 'failed'],
  ] as const)('maps a failed prediction with %s to %s once it has been tried as often as it may', async (name, kind) => {
    fake.outcome = () => ({ status: 'failed', error: name });
    const error = await rejection(adapter({ retry: { initialDelayMs: 1 } }).generate(await request()));
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain(RUNTIME_ERRORS[name]);
    // Documented as worth retrying ("Retry with backoff", "Retry request (no charge for failures)"): new predictions,
    // up to DEFAULT_RETRY.predictions; any other runtime error is final at once.
    expect(fake.runs).toHaveLength(kind === 'transient' ? DEFAULT_RETRY.predictions : 1);
  });

  it.each(['ThirdPartyError', 'UnavailableError', 'PipelineError'] as const)('replaces a prediction that failed with %s by a new one and returns its picture', async (name) => {
    fake.outcomes = [{ status: 'failed', error: name }];
    const remembered: string[] = [];
    const output = await adapter({ retry: { initialDelayMs: 1 } }).generate(await request(), { remember: async (id) => void remembered.push(id) });
    expect(output).toMatchObject({ width: 720, height: 1280, model: 'fashn:product-to-model' });
    expect(fake.runs.map((run) => run.id)).toEqual(['pred-1', 'pred-2']);
    // The same request again, and the newer prediction remembered too: a retried task waits for it.
    expect(fake.runs[1]!.inputs).toEqual(fake.runs[0]!.inputs);
    expect(remembered).toEqual(['pred-1', 'pred-2']);
  });

  it.each([
    ['1k', { width: 720, height: 1280 }, 'fast', 1],
    ['2k', { width: 1440, height: 2560 }, 'balanced', 3],
    ['4k', { width: 2880, height: 5120 }, 'balanced', 4],
  ] as const)('sends the generation_mode the table prices at %s and is billed the table\'s credits', async (resolution, size, mode, credits) => {
    await adapter().generate(await request({ size }));
    expect(fake.runs[0]!.inputs).toMatchObject({ resolution, generation_mode: mode });
    expect(fake.runs[0]!.credits).toBe(credits);
    expect(FASHN_MODELS['product-to-model'].credits[resolution]).toEqual({ mode, credits });
  });

  it('reports a bill above the table (x-fashn-credits-used) in the log', async () => {
    const warnings: unknown[] = [];
    const spy = vi.spyOn(log, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
    try {
      // FASHN bills above the table: what its header says is compared with what the table priced.
      fake.bill = () => 9;
      await adapter().generate(await request());
    } finally {
      spy.mockRestore();
    }
    expect(warnings).toEqual([[expect.stringContaining('more credits'), expect.objectContaining({ creditsUsed: 9, expectedCredits: 1 })]]);
  });

  it('runs no model FASHN does not list: an unknown model_name is refused as FASHN refuses it', async () => {
    const error = await rejection(adapter({ modelName: 'product-to-model-v0' }).generate(await request()));
    expect(error.kind).toBe('failed');
    expect(fake.refused).toEqual([{ model_name: 'product-to-model-v0', status: 400, error: 'BadRequest' }]);
    expect(fake.runs).toHaveLength(0);
  });

  it.each([
    [429, 'RateLimitExceeded', 'transient'],
    [429, 'ConcurrencyLimitExceeded', 'transient'],
    [429, 'OutOfCredits', 'failed'],
    [500, 'InternalServerError', 'transient'],
    [400, 'BadRequest', 'failed'],
  ])('maps an HTTP %i %s from /v1/run to %s', async (status, name, kind) => {
    fake.runErrors = [{ status, error: name }];
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe(kind);
    expect(fake.statusCalls).toBe(0);
  });

  it('gives up at the deadline with a transient error', async () => {
    fake.pending = Array<string>(1000).fill('processing');
    const error = await rejection(adapter({ deadlineMs: 200, pollIntervalMs: 20 }).generate(await request()));
    expect(error.kind).toBe('transient');
    expect(fake.statusCalls).toBeGreaterThan(1);
    expect(fake.outputFetches).toBe(0);
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
    fake.pending = Array<string>(1000).fill('processing');
    const first = await rejection(adapter({ deadlineMs: 200, pollIntervalMs: 20 }).generate(await request(), memory()));
    expect(first.kind).toBe('transient');
    expect(remembered).toEqual(['pred-1']);

    // The workflow retries the task: the same photo, the job now done.
    fake.pending = [];
    fake.statusCalls = 0;
    const output = await adapter().generate(await request(), memory());
    expect(fake.runs).toHaveLength(1);
    // The retry polled the remembered prediction. (At least once, not exactly: the first attempt's last poll, aborted
    // at its deadline, may still reach the fake after the counter was reset on a loaded machine.)
    expect(fake.statusCalls).toBeGreaterThanOrEqual(1);
    expect(output).toMatchObject({ width: 720, height: 1280, model: 'fashn:product-to-model' });
    expect(remembered).toEqual(['pred-1']);
  });

  it('a remembered prediction that failed is reported as its error, and nothing new is started', async () => {
    const started = earlierPrediction({ status: 'failed', error: 'ContentModerationError' });
    const error = await rejection(adapter().generate(await request(), { started, remember: async () => undefined }));
    expect(error.kind).toBe('content_policy');
    expect(fake.runs.map((run) => run.id)).toEqual([started]);
  });

  it('accepts the CDN answer by the picture bytes, whatever content type it states', async () => {
    fake.cdn = { contentType: 'application/octet-stream' };
    const output = await adapter().generate(await request());
    expect([output.width, output.height]).toEqual([720, 1280]);
    expect(fake.outputFetches).toBe(1);
  });

  it('refuses a CDN answer that is no picture even when it is labelled image/png', async () => {
    fake.cdn = { contentType: 'image/png', body: Buffer.from('<html>Access denied</html>') };
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe('failed');
  });

  it('refuses an output on a foreign host', async () => {
    fake.outcomes = [{ status: 'completed', output: 'https://attacker.example/steal.png' }];
    const error = await rejection(adapter().generate(await request()));
    expect(error.kind).toBe('failed');
  });

  it('downloads the output through the fetch guard: a loopback output is refused without the test allowance', async () => {
    const allowance = process.env[TEST_FETCH_TARGETS_ENV];
    delete process.env[TEST_FETCH_TARGETS_ENV];
    try {
      const error = await rejection(adapter().generate(await request()));
      expect(error.kind).toBe('failed');
      expect(fake.outputFetches).toBe(0);
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
    fake.outcomes = [{ status: 'completed', output: `data:image/png;base64,${fake.image.toString('base64')}` }];
    const output = await adapter().generate(await request({ size: { width: 1440, height: 2560 } }));
    expect([output.width, output.height]).toEqual([1440, 2560]);
    expect(fake.outputFetches).toBe(0);
    expect(fake.runs[0]!.inputs!.resolution).toBe('2k');
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
