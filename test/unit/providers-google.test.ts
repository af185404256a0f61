// Contract tests of the Google adapters (Gemini image for on-model photos and edits, Veo 3.1 for video) through the
// official @google/genai SDK, against a loopback fake of the Gemini API that speaks the documented request and answer
// shapes (test/support/fake-google.ts). Nothing leaves the machine.
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiImage, createVeoVideo, googleClient, planVeoClips } from '../../lambdas/providers/google/index.js';
import { veoBilledSeconds } from '../../lambdas/providers/google/veo-video.js';
import { RETIRED_GOOGLE_MODELS } from '../../lambdas/providers/google/models.js';
import { RETIRED_MODEL_IDS } from '../support/fake-google.js';
import { veoOperationName } from '../../lambdas/providers/google/veo-operation.js';
import { CONTENT_POLICY_MESSAGE, ProviderError, type ImageInput, type OnModelImageRequest, type S3Location, type UpscalePort } from '../../lambdas/providers/ports.js';
import { getProviders, readProviderConfig } from '../../lambdas/providers/registry.js';
import { FAKE_GOOGLE_API_KEY, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';

let fake: FakeGoogle;
let product: ImageInput;
let portrait: ImageInput;
const upscaleCalls: Array<{ size: { width: number; height: number }; input: { width: number; height: number } }> = [];
const stored: Array<{ location: S3Location; bytes: Buffer }> = [];

const upscale: UpscalePort = {
  async upscale({ image, size }) {
    const meta = await sharp(image.bytes).metadata();
    upscaleCalls.push({ size, input: { width: meta.width!, height: meta.height! } });
    const bytes = await sharp(image.bytes).resize(size.width, size.height, { fit: 'fill' }).png().toBuffer();
    return { bytes, mimeType: 'image/png', ...size, model: 'local-engine:lanczos' };
  },
};

const client = () => googleClient({ apiKey: async () => FAKE_GOOGLE_API_KEY, baseUrl: fake.baseUrl, retry: { attempts: 3, initialDelaySeconds: 0.01 } });
const gemini = (overrides: Partial<Parameters<typeof createGeminiImage>[0]> = {}) =>
  createGeminiImage({ client: client(), model: 'gemini-3.1-flash-image', maxSize: '1K', textModel: 'gemini-2.5-flash-lite', upscale, ...overrides });
const veo = () =>
  createVeoVideo({
    client: client(),
    model: 'veo-3.1-fast-generate-preview',
    apiKey: async () => FAKE_GOOGLE_API_KEY,
    baseUrl: fake.baseUrl,
    store: async (location, bytes) => void stored.push({ location, bytes }),
    busyRetry: { attempts: 3, initialDelayMs: 10 },
  });

function onModel(overrides: Partial<OnModelImageRequest> = {}): OnModelImageRequest {
  return {
    product,
    productType: 'clothing',
    model: { description: 'young woman with short dark hair', seed: 1234 },
    cameraZoom: 'full-body',
    size: { width: 720, height: 1280 },
    aspectRatio: '9:16',
    promptEnhance: false,
    ...overrides,
  };
}

const generateCalls = () => fake.requests.filter((request) => request.path.endsWith(':generateContent'));
const promptOf = (body: any): string => body.contents[0].parts.filter((part: any) => part.text).map((part: any) => part.text).join(' ');

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

beforeAll(async () => {
  fake = await startFakeGoogle();
  product = { bytes: await tshirtPhoto(), mimeType: 'image/png' };
  portrait = { bytes: await sharp({ create: { width: 300, height: 400, channels: 3, background: '#a0785a' } }).jpeg().toBuffer(), mimeType: 'image/jpeg' };
}, 60_000);
afterAll(() => fake?.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.operations.length = 0;
  fake.checksUntilDone = 1;
  fake.interpolationNeeds8 = true;
  fake.refuseAllowAdult = false;
  fake.redirectDownloads = false;
  upscaleCalls.length = 0;
  stored.length = 0;
});

describe('Gemini image: on-model photos', () => {
  it('sends one prompt with the product image and imageConfig, and delivers the exact size', async () => {
    const output = await gemini().onModelImage.generate(onModel());
    expect(output).toMatchObject({ width: 720, height: 1280, mimeType: 'image/png', model: 'google:gemini-3.1-flash-image' });
    expect((await sharp(output.bytes).metadata()).width).toBe(720);
    const [call] = generateCalls();
    expect(call!.path).toBe('/v1beta/models/gemini-3.1-flash-image:generateContent');
    expect(call!.apiKey).toBe(FAKE_GOOGLE_API_KEY);
    expect(call!.body.generationConfig).toMatchObject({ responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '9:16', imageSize: '1K' } });
    const parts = call!.body.contents[0].parts;
    expect(parts).toHaveLength(2);
    expect(parts[1].inlineData).toEqual({ mimeType: 'image/png', data: product.bytes.toString('base64') });
    const prompt = promptOf(call!.body);
    expect(prompt).toContain('young woman with short dark hair');
    expect(prompt).toMatch(/full-body/i);
    expect(prompt).toMatch(/garment/);
  });

  it('puts a batch photo’s angle and backdrop, and jewelry’s focus, into the prompt', async () => {
    await gemini().onModelImage.generate(onModel({ productType: 'jewelry', angle: 'Side', backdrop: '#112233', cameraZoom: 'close-up' }));
    const prompt = promptOf(generateCalls()[0]!.body);
    expect(prompt).toMatch(/from the side/i);
    expect(prompt).toContain('#112233');
    expect(prompt).toMatch(/jewelry .*sharp focus/);
  });

  it('sends a saved model’s reference portrait as a second image with the instruction to keep that person', async () => {
    await gemini().onModelImage.generate(onModel({ model: { description: 'saved model Ana', referenceImage: portrait, seed: 77, modelId: 'm-1' } }));
    const { body } = generateCalls()[0]!;
    const images = body.contents[0].parts.filter((part: any) => part.inlineData);
    expect(images.map((part: any) => part.inlineData.mimeType)).toEqual(['image/png', 'image/jpeg']);
    expect(images[1].inlineData.data).toBe(portrait.bytes.toString('base64'));
    expect(promptOf(body)).toMatch(/keep exactly this person/);
  });

  it('promptEnhance asks the text model to enrich the description and uses its words', async () => {
    await gemini().onModelImage.generate(onModel({ promptEnhance: true }));
    const [enrich, image] = generateCalls();
    expect(enrich!.path).toBe('/v1beta/models/gemini-2.5-flash-lite:generateContent');
    expect(promptOf(enrich!.body)).toContain('young woman with short dark hair');
    expect(promptOf(image!.body)).toContain('warm brown skin and short curly hair, relaxed three-quarter pose');
  });

  it('makes a 2k photo at the largest allowed size and brings it to 1440×2560 through the upscale port, saying so', async () => {
    const output = await gemini().onModelImage.generate(onModel({ size: { width: 1440, height: 2560 } }));
    expect(generateCalls()[0]!.body.generationConfig.imageConfig.imageSize).toBe('1K');
    expect(upscaleCalls).toEqual([{ size: { width: 1440, height: 2560 }, input: { width: 774, height: 1376 } }]);
    expect(output).toMatchObject({ width: 1440, height: 2560 });
    expect(output.model).toBe('google:gemini-3.1-flash-image 1K 774×1376 + upscale local-engine:lanczos');
  });

  it('asks for 2K natively when the deployment allows it, and needs no upscale', async () => {
    const output = await gemini({ maxSize: '4K' }).onModelImage.generate(onModel({ size: { width: 1440, height: 2560 } }));
    expect(generateCalls()[0]!.body.generationConfig.imageConfig.imageSize).toBe('2K');
    expect(upscaleCalls).toEqual([]);
    expect(output).toMatchObject({ width: 1440, height: 2560, model: 'google:gemini-3.1-flash-image' });
  });

  it('a refused prompt (promptFeedback.blockReason) and a refused output (finishReason IMAGE_SAFETY) are Content Policy Violations', async () => {
    for (const description of ['please refuse me', 'an unsafe output']) {
      const error = await rejection(gemini().onModelImage.generate(onModel({ model: { description, seed: 1 } })));
      expect(error.kind).toBe('content_policy');
      expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
    }
  });

  it('retries a 429 with backoff and succeeds; past the attempts it is a transient failure with our own message', async () => {
    await gemini().onModelImage.generate(onModel({ model: { description: 'busy once model', seed: 1 } }));
    expect(generateCalls()).toHaveLength(2);
    fake.requests.length = 0;
    const error = await rejection(gemini().onModelImage.generate(onModel({ model: { description: 'always busy model', seed: 1 } })));
    expect(generateCalls()).toHaveLength(3);
    expect(error.kind).toBe('transient');
    expect(error.message).not.toMatch(/exhausted|quota/i);
  });

  it('a wrong key is a failure, not a retry', async () => {
    const port = createGeminiImage({ client: googleClient({ apiKey: async () => 'wrong', baseUrl: fake.baseUrl, retry: { attempts: 3, initialDelaySeconds: 0.01 } }), model: 'gemini-3.1-flash-image', maxSize: '1K', textModel: 'gemini-2.5-flash-lite', upscale });
    const error = await rejection(port.onModelImage.generate(onModel()));
    expect(error.kind).toBe('failed');
    expect(generateCalls()).toHaveLength(1);
  });
});

describe('Gemini image: what the documents say', () => {
  // Release notes, 2026-05-28: the preview image models "are deprecated and will be shut down on June 25, 2026".
  it('the default model is a served GA id, and a retired id answers 404 (a failure)', async () => {
    expect(RETIRED_MODEL_IDS).toEqual(expect.arrayContaining(Object.keys(RETIRED_GOOGLE_MODELS)));
    fake.requests.length = 0;
    await gemini().onModelImage.generate(onModel());
    expect(generateCalls()[0]!.path).toBe('/v1beta/models/gemini-3.1-flash-image:generateContent');
    const error = await rejection(gemini({ model: 'gemini-3.1-flash-image-preview' }).onModelImage.generate(onModel()));
    expect(error.kind).toBe('failed');
  });

  it('sends imageSize only to a model that takes it', async () => {
    const output = await gemini({ model: 'gemini-3.1-flash-lite-image' }).onModelImage.generate(onModel());
    expect(generateCalls()[0]!.body.generationConfig.imageConfig).toEqual({ aspectRatio: '9:16' });
    expect(output).toMatchObject({ width: 720, height: 1280 });
  });

  // "Image generation with Gemini": Gemini 3 image models may return interim thought images (thought: true).
  it('skips thought parts and delivers the final image', async () => {
    const output = await gemini().onModelImage.generate(onModel({ model: { description: 'a thinking image model', seed: 1 } }));
    expect(upscaleCalls).toEqual([]);
    expect(output).toMatchObject({ width: 720, height: 1280, model: 'google:gemini-3.1-flash-image' });
  });

  // ThinkingConfig.thinkingBudget: "0 is DISABLED" (@google/genai); only finishReason STOP is a whole answer.
  it('enriches with thinking off, and ignores a cut answer (finishReason MAX_TOKENS)', async () => {
    await gemini().onModelImage.generate(onModel({ promptEnhance: true }));
    expect(generateCalls()[0]!.body.generationConfig).toMatchObject({ maxOutputTokens: 200, thinkingConfig: { thinkingBudget: 0 } });
    fake.requests.length = 0;
    await gemini().onModelImage.generate(onModel({ promptEnhance: true, model: { description: 'a long winded description', seed: 1 } }));
    const prompt = promptOf(generateCalls()[1]!.body);
    expect(prompt).toContain('a long winded description');
    expect(prompt).not.toMatch(/warm brown skin and\./);
  });

  it('keeps one image call with its retries inside the Process task’s timeout', async () => {
    const { IMAGE_CALL_BUDGET_MS, ENRICHMENT_BUDGET_MS } = await import('../../lambdas/providers/google/gemini-image.js');
    const { WORKFLOWS } = await import('../../lambdas/workflows.js');
    expect(IMAGE_CALL_BUDGET_MS + ENRICHMENT_BUDGET_MS).toBeLessThan(WORKFLOWS.generation.tasks.Process.timeoutSeconds * 1000);
    expect(IMAGE_CALL_BUDGET_MS + ENRICHMENT_BUDGET_MS).toBeLessThan(WORKFLOWS.batch.tasks.MakePhoto.timeoutSeconds * 1000);
    // The budget ends the SDK's retries: with a 1 s back-off and 4 attempts, a 300 ms deadline leaves one or two calls.
    const slowRetries = googleClient({ apiKey: async () => FAKE_GOOGLE_API_KEY, baseUrl: fake.baseUrl, retry: { attempts: 4, initialDelaySeconds: 1 } });
    const error = await rejection(gemini({ client: slowRetries, imageCallBudgetMs: 300 }).onModelImage.generate(onModel({ model: { description: 'always busy model', seed: 1 } })));
    expect(error.kind).toBe('transient');
    expect(generateCalls().length).toBeLessThanOrEqual(2);
  });
});

describe('Gemini image: free-text edits', () => {
  it('sends the photo and the instruction as written, and returns the photo’s own size', async () => {
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#ddd' } }).png().toBuffer();
    const output = await gemini().edit.edit({ image: { bytes: photo, mimeType: 'image/png' }, instruction: 'make the sweater emerald green with a subtle cable knit' });
    expect(output).toMatchObject({ width: 900, height: 1200, model: 'google:gemini-3.1-flash-image' });
    const { body } = generateCalls()[0]!;
    expect(body.generationConfig.imageConfig).toEqual({ aspectRatio: '3:4', imageSize: '1K' });
    expect(promptOf(body)).toContain('make the sweater emerald green with a subtle cable knit');
  });
});

describe('Veo 3.1: video', () => {
  const request = (overrides: Record<string, unknown> = {}) => ({
    image: product,
    prompt: 'Pivot',
    durationSeconds: 8,
    aspectRatio: '9:16' as const,
    size: { width: 720, height: 1280 },
    output: { bucket: 'results', key: 'u/videos/j/raw/output-1-clip-1.mp4' },
    ...overrides,
  });

  it('plans 8 s as one clip, 5 s as one 6 s clip, 16 s as two clips that each start from the product image', () => {
    expect(planVeoClips(8)).toEqual([{ seconds: 8, keyframe: 'source' }]);
    expect(planVeoClips(5)).toEqual([{ seconds: 6, keyframe: 'source' }]);
    expect(planVeoClips(16)).toEqual([{ seconds: 8, keyframe: 'source' }, { seconds: 8, keyframe: 'source' }]);
  });

  it('starts a long-running operation whose first and last frames are both the product image', async () => {
    const started = await veo().start(request());
    expect(started.model).toBe('google:veo-3.1-fast-generate-preview');
    const call = fake.requests.find((r) => r.path.endsWith(':predictLongRunning'))!;
    expect(call.path).toBe('/v1beta/models/veo-3.1-fast-generate-preview:predictLongRunning');
    expect(call.body.parameters).toMatchObject({ aspectRatio: '9:16', durationSeconds: 8, resolution: '720p', personGeneration: 'allow_adult' });
    const instance = call.body.instances[0];
    expect(instance.image.bytesBase64Encoded).toBe(instance.lastFrame.bytesBase64Encoded);
    expect(await sharp(Buffer.from(instance.image.bytesBase64Encoded, 'base64')).metadata()).toMatchObject({ width: 720, height: 1280 });
    expect(started.operationName).toBe(veoOperationName(`models/veo-3.1-fast-generate-preview/operations/${fake.operations.at(-1)!.id}`, request().output));
  });

  it('asks for 6 s for a 5 s video and for 9:16 for a 1:1 video (padded to a square by finalize)', async () => {
    fake.interpolationNeeds8 = false;
    await veo().start(request({ durationSeconds: 5, aspectRatio: '1:1', size: { width: 720, height: 720 } }));
    expect(fake.operations.at(-1)).toMatchObject({ durationSeconds: 6, aspectRatio: '9:16' });
  });

  // Veo guide, November 2025, durationSeconds: "Must be "8" when using extension or interpolation".
  it('a 5 s video refused at 6 s with lastFrame ("must be 8 when using interpolation") is made from an 8 s clip that still ends on the product image', async () => {
    const started = await veo().start(request({ durationSeconds: 5 }));
    const posts = fake.requests.filter((r) => r.path.endsWith(':predictLongRunning'));
    expect(posts.map((post) => post.body.parameters.durationSeconds)).toEqual([6, 8]);
    const last = posts.at(-1)!.body.instances[0];
    expect(last.lastFrame.bytesBase64Encoded).toBe(last.image.bytesBase64Encoded);
    expect(fake.operations).toHaveLength(1);
    expect(fake.operations[0]).toMatchObject({ durationSeconds: 8 });
    expect(started.operationName).toContain(fake.operations[0]!.id);
    // The price list counts the clip it may fall back to.
    expect(veoBilledSeconds(5)).toBe(8);
    expect(veoBilledSeconds(16)).toBe(16);
  });

  // The guide lists "allow_adult" as the only image-to-video value; a 2026 forum report shows it refused.
  it('on the allow_adult refusal the start is sent once more without personGeneration', async () => {
    fake.refuseAllowAdult = true;
    await veo().start(request());
    const posts = fake.requests.filter((r) => r.path.endsWith(':predictLongRunning'));
    expect(posts.map((post) => post.body.parameters.personGeneration)).toEqual(['allow_adult', undefined]);
    expect(fake.operations).toHaveLength(1);
  });

  it('never retries a start that failed with a 5xx (it may have started a billed clip): a failure, refunded, one POST', async () => {
    const error = await rejection(veo().start(request({ prompt: 'server error please' })));
    expect(error.kind).toBe('failed');
    expect(fake.requests.filter((r) => r.path.endsWith(':predictLongRunning'))).toHaveLength(1);
  });

  it('a clip filtered for its audio ("You will not be charged") is a failure, not a Content Policy Violation about people', async () => {
    fake.checksUntilDone = 0;
    const port = veo();
    const status = await port.check((await port.start(request({ prompt: 'audio filtered' }))).operationName);
    expect(status).toMatchObject({ state: 'failed', error: { kind: 'failed' } });
    expect((status as { error: Error }).error.message).not.toMatch(/Content Policy|people/);
  });

  it('follows a download redirect to another host without the API key', async () => {
    fake.checksUntilDone = 0;
    fake.redirectDownloads = true;
    const port = veo();
    const { operationName } = await port.start(request());
    expect(await port.check(operationName)).toEqual({ state: 'completed', output: request().output });
    const storage = fake.requests.find((r) => r.path.startsWith('/storage/'))!;
    expect(storage.host).toMatch(/^localhost:/);
    expect(storage.apiKey).toBeUndefined();
    expect(fake.requests.find((r) => r.path.endsWith(':download'))!.apiKey).toBe(FAKE_GOOGLE_API_KEY);
    expect(stored).toHaveLength(1);
  }, 60_000);

  it('checks the operation until done, then downloads the clip and stores it where the workflow asked', async () => {
    const port = veo();
    const { operationName } = await port.start(request());
    expect(await port.check(operationName)).toEqual({ state: 'running' });
    expect(await port.check(operationName)).toEqual({ state: 'completed', output: request().output });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.location).toEqual(request().output);
    expect(stored[0]!.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const download = fake.requests.find((r) => r.path.endsWith(':download'))!;
    expect(download.apiKey).toBe(FAKE_GOOGLE_API_KEY);
  }, 60_000);

  it('a filtered clip (raiMediaFilteredCount) is a Content Policy Violation; an operation that ends in error is a failure', async () => {
    fake.checksUntilDone = 0;
    const port = veo();
    const refused = await port.check((await port.start(request({ prompt: 'refuse me please' }))).operationName);
    expect(refused).toMatchObject({ state: 'failed', error: { kind: 'content_policy', message: CONTENT_POLICY_MESSAGE } });
    const broken = await port.check((await port.start(request({ prompt: 'operation error' }))).operationName);
    expect(broken).toMatchObject({ state: 'failed', error: { kind: 'failed' } });
    expect((broken as { error: Error }).error.message).not.toMatch(/internal error/);
    expect(stored).toEqual([]);
  });

  it('an operation that never finishes stays running (the workflow’s check limit then fails and refunds it)', async () => {
    const port = veo();
    const { operationName } = await port.start(request({ prompt: 'never finishes' }));
    for (let check = 0; check < 3; check++) expect(await port.check(operationName)).toEqual({ state: 'running' });
  });

  it('a 429 on start is retried, then reported busy (the workflow retries and in the end refunds)', async () => {
    const error = await rejection(veo().start(request({ prompt: 'busy busy' })));
    expect(error.kind).toBe('transient');
    expect(fake.requests.filter((r) => r.path.endsWith(':predictLongRunning'))).toHaveLength(3);
  });
});

describe('configuration', () => {
  it('google on a port needs the key secret, named when missing', () => {
    expect(() => readProviderConfig({ PROVIDER_VIDEO: 'google' })).toThrow(/GOOGLE_API_KEY_SECRET/);
    expect(readProviderConfig({ PROVIDER_IMAGE: 'google', PROVIDER_EDIT: 'google', GOOGLE_API_KEY_SECRET: 'modelloop/prod/google', GOOGLE_VIDEO_MODEL: 'veo-3.1-generate-preview' }).google).toEqual({
      apiKeySecret: 'modelloop/prod/google',
      apiKey: undefined,
      baseUrl: undefined,
      imageModel: 'gemini-3.1-flash-image',
      imageMaxSize: '1K',
      textModel: 'gemini-2.5-flash-lite',
      videoModel: 'veo-3.1-generate-preview',
    });
    expect(() => readProviderConfig({ PROVIDER_EDIT: 'google', GOOGLE_API_KEY: 'k', GOOGLE_API_BASE_URL: 'http://example.com' })).toThrow(/GOOGLE_API_BASE_URL/);
  });

  it('the registry serves edits from Gemini when PROVIDER_EDIT=google', async () => {
    const providers = getProviders({ PROVIDER_EDIT: 'google', GOOGLE_API_KEY: FAKE_GOOGLE_API_KEY, GOOGLE_API_BASE_URL: fake.baseUrl });
    const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ddd' } }).png().toBuffer();
    const output = await providers.edit.edit({ image: { bytes: photo, mimeType: 'image/png' }, instruction: 'add a soft shadow' });
    expect(output.model).toBe('google:gemini-3.1-flash-image');
    expect(providers.video.planClips(16)).toHaveLength(1);
  });
});
