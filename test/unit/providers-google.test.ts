// Contract tests of the Google adapters (Gemini image for on-model photos and edits, Gemini Omni for video) through the
// official @google/genai SDK, against a loopback fake of the Gemini API written from Google's documents
// (test/support/fake-google.ts): the image calls, the Interactions API, and exactly the models the dated table serves.
// Nothing leaves the machine.
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDER_MESSAGES } from '../../lambdas/contracts/catalog.js';
import { createGeminiImage, createOmniVideo, googleClient, planOmniClips } from '../../lambdas/providers/google/index.js';
import { retryGoogle } from '../../lambdas/providers/google/client.js';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';
import { GOOGLE_MODELS } from '../../lambdas/providers/google/model-table.js';
import { CHECK_FETCH_BUDGET_MS } from '../../lambdas/providers/google/omni-status.js';
import { omniOperationName } from '../../lambdas/providers/google/omni-operation.js';
import { CONTENT_POLICY_MESSAGE, ProviderError, type ImageInput, type OnModelImageRequest, type S3Location, type UpscalePort } from '../../lambdas/providers/ports.js';
import { getProviders, readProviderConfig } from '../../lambdas/providers/registry.js';
import { FAKE_GOOGLE_API_KEY, FAKE_GOOGLE_FREE_TIER_KEY, shutDownModelIds, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
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

const client = (key = FAKE_GOOGLE_API_KEY, timeoutMs?: number) => googleClient({ apiKey: async () => key, baseUrl: fake.baseUrl, ...(timeoutMs ? { timeoutMs } : {}) });
const gemini = (overrides: Partial<Parameters<typeof createGeminiImage>[0]> = {}) =>
  createGeminiImage({
    client: client(),
    model: GOOGLE_DEFAULTS.imageModel,
    maxSize: '1K',
    textModel: GOOGLE_DEFAULTS.textModel,
    upscale,
    resend: { attempts: 3, initialDelayMs: 10 },
    ...overrides,
  });
const omni = (overrides: Partial<Parameters<typeof createOmniVideo>[0]> = {}) =>
  createOmniVideo({
    client: client(),
    model: GOOGLE_DEFAULTS.videoModel,
    resolution: GOOGLE_DEFAULTS.videoResolution,
    apiKey: async () => FAKE_GOOGLE_API_KEY,
    baseUrl: fake.baseUrl,
    store: async (location: S3Location, bytes: Buffer) => void stored.push({ location, bytes }),
    busyRetry: { attempts: 3, initialDelayMs: 10 },
    ...overrides,
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
const interactionPosts = () => fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1beta/interactions');
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
  fake.interactions.length = 0;
  fake.checksUntilDone = 1;
  fake.delayMs = 0;
  fake.redirectDownloads = false;
  fake.stallDownloads = false;
  upscaleCalls.length = 0;
  stored.length = 0;
});

describe('Gemini image: on-model photos', () => {
  it('sends one prompt with the product image and imageConfig, and delivers the exact size', async () => {
    const output = await gemini().onModelImage.generate(onModel());
    expect(output).toMatchObject({ width: 720, height: 1280, mimeType: 'image/png', model: `google:${GOOGLE_DEFAULTS.imageModel}` });
    expect((await sharp(output.bytes).metadata()).width).toBe(720);
    const [call] = generateCalls();
    expect(call!.path).toBe(`/v1beta/models/${GOOGLE_DEFAULTS.imageModel}:generateContent`);
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
    expect(enrich!.path).toBe(`/v1beta/models/${GOOGLE_DEFAULTS.textModel}:generateContent`);
    expect(promptOf(enrich!.body)).toContain('young woman with short dark hair');
    expect(promptOf(image!.body)).toContain('warm brown skin and short curly hair, relaxed three-quarter pose');
  });

  it('makes a 2k photo at the largest allowed size and brings it to 1440×2560 through the upscale port, saying so', async () => {
    const output = await gemini().onModelImage.generate(onModel({ size: { width: 1440, height: 2560 } }));
    expect(generateCalls()[0]!.body.generationConfig.imageConfig.imageSize).toBe('1K');
    expect(upscaleCalls).toEqual([{ size: { width: 1440, height: 2560 }, input: { width: 774, height: 1376 } }]);
    expect(output).toMatchObject({ width: 1440, height: 2560 });
    expect(output.model).toBe(`google:${GOOGLE_DEFAULTS.imageModel} 1K 774×1376 + upscale local-engine:lanczos`);
  });

  it('asks for 2K natively when the deployment allows it, and needs no upscale', async () => {
    const output = await gemini({ maxSize: '4K' }).onModelImage.generate(onModel({ size: { width: 1440, height: 2560 } }));
    expect(generateCalls()[0]!.body.generationConfig.imageConfig.imageSize).toBe('2K');
    expect(upscaleCalls).toEqual([]);
    expect(output).toMatchObject({ width: 1440, height: 2560, model: `google:${GOOGLE_DEFAULTS.imageModel}` });
  });

  it('a refused prompt (promptFeedback.blockReason) and a refused output (finishReason IMAGE_SAFETY) are Content Policy Violations', async () => {
    for (const description of ['please refuse me', 'an unsafe output']) {
      const error = await rejection(gemini().onModelImage.generate(onModel({ model: { description, seed: 1 } })));
      expect(error.kind).toBe('content_policy');
      expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
    }
  });

  it('sends a 429 again with backoff and succeeds; past the attempts it is a transient failure with our own message', async () => {
    await gemini().onModelImage.generate(onModel({ model: { description: 'busy once model', seed: 1 } }));
    expect(generateCalls()).toHaveLength(2);
    fake.requests.length = 0;
    const error = await rejection(gemini().onModelImage.generate(onModel({ model: { description: 'always busy model', seed: 1 } })));
    expect(generateCalls()).toHaveLength(3);
    expect(error.kind).toBe('transient');
    expect(error.message).not.toMatch(/exhausted|quota/i);
  });

  it('a wrong key is a failure, not a retry', async () => {
    const error = await rejection(gemini({ client: client('wrong') }).onModelImage.generate(onModel()));
    expect(error.kind).toBe('failed');
    expect(generateCalls()).toHaveLength(1);
  });
});

describe('Gemini image: money and truthful messages', () => {
  // The SDK retries a call that hit its own timeout: 4 POSTs of one billed image against a slow server (issue 46).
  it('sends a call that timed out once only (its retries are off): it may have been billed', async () => {
    fake.delayMs = 1_500;
    const error = await rejection(gemini({ client: client(FAKE_GOOGLE_API_KEY, 300) }).onModelImage.generate(onModel()));
    expect(error.kind).toBe('transient');
    expect(generateCalls()).toHaveLength(1);
  });

  it('sends a call again only when nothing reached Google: a refused connection yes, a timeout or a 5xx no', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    let calls = 0;
    expect(await retryGoogle(async () => (++calls === 1 ? Promise.reject(refused) : 'made'), { initialDelayMs: 1 })).toBe('made');
    expect(calls).toBe(2);
    for (const error of [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), Object.assign(new Error('503 Service Unavailable'), { status: 503 })]) {
      calls = 0;
      await expect(retryGoogle(async () => (++calls, Promise.reject(error)), { initialDelayMs: 1 })).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });

  // Gemini 3.1 Flash Image: "Free Tier: Not available"; a free-tier key is answered 429 with a quota of 0.
  it('a key without paid access says so and is not retried (it is no "busy")', async () => {
    const error = await rejection(gemini({ client: client(FAKE_GOOGLE_FREE_TIER_KEY) }).onModelImage.generate(onModel()));
    expect(error).toMatchObject({ kind: 'account', message: PROVIDER_MESSAGES.accountNotPaid });
    expect(generateCalls()).toHaveLength(1);
  });

  it('recitation and personal-data refusals read as what was refused', async () => {
    const recited = await rejection(gemini().onModelImage.generate(onModel({ model: { description: 'recite please', seed: 1 } })));
    expect(recited).toMatchObject({ kind: 'content_policy', message: PROVIDER_MESSAGES.recitation });
    const personal = await rejection(gemini().onModelImage.generate(onModel({ model: { description: 'personal data', seed: 1 } })));
    expect(personal).toMatchObject({ kind: 'content_policy', message: PROVIDER_MESSAGES.personalData });
    expect(personal.message).not.toMatch(/recognizable people/);
  });

  // Gemini 3: `temperature` is deprecated (changelog, 2026-07-21); the 2.5 Flash-Lite is shut down for new projects.
  it('enriches on a current text model without temperature', async () => {
    await gemini().onModelImage.generate(onModel({ promptEnhance: true }));
    const [enrich] = generateCalls();
    expect(GOOGLE_MODELS[GOOGLE_DEFAULTS.textModel]).toMatchObject({ kind: 'text' });
    expect(GOOGLE_MODELS[GOOGLE_DEFAULTS.textModel]).not.toHaveProperty('shutdown');
    expect(enrich!.body.generationConfig).not.toHaveProperty('temperature');
  });

  it('a refused enrichment makes the photo from the plain description and says it was not enriched', async () => {
    const output = await gemini().onModelImage.generate(onModel({ promptEnhance: true, model: { description: 'refuse enrichment please', seed: 1 } }));
    expect(output.notRendered).toEqual([PROVIDER_MESSAGES.notEnrichedRefused]);
    expect(promptOf(generateCalls()[1]!.body)).toContain('refuse enrichment please');
    // On a text model Google has shut down, the photo is still made, and says the same for its own reason.
    const late = await gemini({ textModel: 'gemini-2.5-flash-lite' }).onModelImage.generate(onModel({ promptEnhance: true }));
    expect(late.notRendered).toEqual([PROVIDER_MESSAGES.notEnrichedUnavailable]);
  });
});

describe('Gemini image: what the documents say', () => {
  // Release notes, 2026-05-28: the preview image models "are deprecated and will be shut down on June 25, 2026".
  it('the default model is a served GA id, and a retired id answers 404 (a failure)', async () => {
    expect(shutDownModelIds()).toEqual(expect.arrayContaining(['gemini-3.1-flash-image-preview', 'gemini-3-pro-image-preview', 'veo-3.1-fast-generate-preview']));
    expect(shutDownModelIds()).not.toContain(GOOGLE_DEFAULTS.imageModel);
    await gemini().onModelImage.generate(onModel());
    expect(generateCalls()[0]!.path).toBe(`/v1beta/models/${GOOGLE_DEFAULTS.imageModel}:generateContent`);
    const error = await rejection(gemini({ model: 'gemini-3.1-flash-image-preview' }).onModelImage.generate(onModel()));
    expect(error.kind).toBe('failed');
  });

  // "Image generation with Gemini": Gemini 3 image models may return interim thought images (thought: true).
  it('skips thought parts and delivers the final image', async () => {
    const output = await gemini().onModelImage.generate(onModel({ model: { description: 'a thinking image model', seed: 1 } }));
    expect(upscaleCalls).toEqual([]);
    expect(output).toMatchObject({ width: 720, height: 1280, model: `google:${GOOGLE_DEFAULTS.imageModel}` });
  });

  // ThinkingConfig.thinkingBudget: "0 is DISABLED" (@google/genai); only finishReason STOP is a whole answer.
  it('enriches with thinking off, and ignores a cut answer (finishReason MAX_TOKENS)', async () => {
    await gemini().onModelImage.generate(onModel({ promptEnhance: true }));
    expect(generateCalls()[0]!.body.generationConfig).toMatchObject({ maxOutputTokens: 200, thinkingConfig: { thinkingBudget: 0 } });
    fake.requests.length = 0;
    const output = await gemini().onModelImage.generate(onModel({ promptEnhance: true, model: { description: 'a long winded description', seed: 1 } }));
    const prompt = promptOf(generateCalls()[1]!.body);
    expect(prompt).toContain('a long winded description');
    expect(prompt).not.toMatch(/warm brown skin and\./);
    expect(output.notRendered).toEqual([PROVIDER_MESSAGES.notEnrichedUnavailable]);
  });

  it('keeps one image call with its resends inside the Process task’s timeout', async () => {
    const { IMAGE_CALL_BUDGET_MS, ENRICHMENT_BUDGET_MS } = await import('../../lambdas/providers/google/gemini-image.js');
    const { WORKFLOWS } = await import('../../lambdas/workflows.js');
    expect(IMAGE_CALL_BUDGET_MS + ENRICHMENT_BUDGET_MS).toBeLessThan(WORKFLOWS.generation.tasks.Process.timeoutSeconds * 1000);
    expect(IMAGE_CALL_BUDGET_MS + ENRICHMENT_BUDGET_MS).toBeLessThan(WORKFLOWS.batch.tasks.MakePhoto.timeoutSeconds * 1000);
    // The budget ends the resends: with a 1 s back-off, a 300 ms deadline leaves one call.
    const error = await rejection(gemini({ resend: { attempts: 4, initialDelayMs: 1000 }, imageCallBudgetMs: 300 }).onModelImage.generate(onModel({ model: { description: 'always busy model', seed: 1 } })));
    expect(error.kind).toBe('transient');
    expect(generateCalls()).toHaveLength(1);
  });
});

describe('Gemini image: free-text edits', () => {
  it('sends the photo and the instruction as written, and returns the photo’s own size', async () => {
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#ddd' } }).png().toBuffer();
    const output = await gemini().edit.edit({ image: { bytes: photo, mimeType: 'image/png' }, instruction: 'make the sweater emerald green with a subtle cable knit' });
    expect(output).toMatchObject({ width: 900, height: 1200, model: `google:${GOOGLE_DEFAULTS.imageModel}` });
    const { body } = generateCalls()[0]!;
    expect(body.generationConfig.imageConfig).toEqual({ aspectRatio: '3:4', imageSize: '1K' });
    expect(promptOf(body)).toContain('make the sweater emerald green with a subtle cable knit');
  });
});

describe('Gemini Omni: video through the Interactions API', () => {
  const request = (overrides: Record<string, unknown> = {}) => ({
    image: product,
    endImage: product,
    prompt: 'Pivot',
    durationSeconds: 8,
    aspectRatio: '9:16' as const,
    size: { width: 720, height: 1280 },
    output: { bucket: 'results', key: 'u/videos/j/raw/output-1-clip-1.mp4' },
    ...overrides,
  });

  it('plans 5 s and 8 s as one clip and 16 s as two 8 s clips, each from the product photo to the product photo', () => {
    const loop = { keyframe: 'source', endKeyframe: 'source' };
    expect(planOmniClips(5)).toEqual([{ seconds: 5, ...loop }]);
    expect(planOmniClips(8)).toEqual([{ seconds: 8, ...loop }]);
    expect(planOmniClips(16)).toEqual([{ seconds: 8, ...loop }, { seconds: 8, ...loop }]);
  });

  it('creates a background interaction whose first and last keyframes are both the product photo', async () => {
    const started = await omni().start(request());
    expect(started.model).toBe(`google:${GOOGLE_DEFAULTS.videoModel}`);
    const [post, ...more] = interactionPosts();
    expect(more).toEqual([]);
    expect(post!.apiKey).toBe(FAKE_GOOGLE_API_KEY);
    expect(post!.body).toMatchObject({
      model: GOOGLE_DEFAULTS.videoModel,
      background: true,
      generation_config: { video_config: { task: 'image_to_video' } },
      response_format: { type: 'video', aspect_ratio: '9:16', resolution: '720p', duration: '8s', delivery: 'uri' },
    });
    const [first, last, text] = post!.body.input;
    expect([first.type, last.type, text.type]).toEqual(['image', 'image', 'text']);
    expect(last.data).toBe(first.data);
    expect(await sharp(Buffer.from(first.data, 'base64')).metadata()).toMatchObject({ width: 720, height: 1280 });
    expect(text.text).toMatch(/single unbroken scene/);
    const [interaction] = fake.interactions;
    expect(started.operationName).toBe(omniOperationName(interaction!.id, request().output));
  });

  it('asks for exactly 5 s for a 5 s video, and for 9:16 for a 1:1 video (padded to a square by finalize)', async () => {
    await omni().start(request({ durationSeconds: 5, aspectRatio: '1:1', size: { width: 720, height: 720 } }));
    expect(fake.interactions.at(-1)).toMatchObject({ durationSeconds: 5, aspectRatio: '9:16' });
  });

  it('never sends a create that failed with a 5xx again (it may have started a billed clip): a failure, one POST', async () => {
    const error = await rejection(omni().start(request({ prompt: 'server error please' })));
    expect(error.kind).toBe('failed');
    expect(interactionPosts()).toHaveLength(1);
  });

  it('a 429 on create is sent again, then reported busy; a key without paid access is neither', async () => {
    const busy = await rejection(omni().start(request({ prompt: 'busy busy' })));
    expect(busy.kind).toBe('transient');
    expect(interactionPosts()).toHaveLength(3);
    fake.requests.length = 0;
    const unpaid = await rejection(omni({ client: client(FAKE_GOOGLE_FREE_TIER_KEY) }).start(request()));
    expect(unpaid).toMatchObject({ kind: 'account', message: PROVIDER_MESSAGES.accountNotPaid });
    expect(interactionPosts()).toHaveLength(1);
  });

  // The Veo 3.1 preview ids were shut down on 2026-10-22: 404 "is no longer available".
  it('a shut-down video model answers 404 "is no longer available": a failure', async () => {
    const error = await rejection(omni({ model: 'veo-3.1-fast-generate-preview' }).start(request()));
    expect(error.kind).toBe('failed');
    expect(interactionPosts()).toHaveLength(1);
  });

  it('checks the interaction until it is completed, then downloads the clip with the key and stores it where asked', async () => {
    const port = omni();
    const { operationName } = await port.start(request());
    expect(await port.check(operationName)).toEqual({ state: 'running' });
    expect(await port.check(operationName)).toEqual({ state: 'completed', output: request().output });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.location).toEqual(request().output);
    expect(stored[0]!.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(fake.requests.find((r) => r.path.startsWith('/v1beta/interactions/'))!.apiKey).toBe(FAKE_GOOGLE_API_KEY);
    expect(fake.requests.find((r) => r.path.endsWith(':download'))!.apiKey).toBe(FAKE_GOOGLE_API_KEY);
  }, 60_000);

  it('follows a download redirect to another host without the API key', async () => {
    fake.checksUntilDone = 0;
    fake.redirectDownloads = true;
    const port = omni();
    const { operationName } = await port.start(request());
    expect(await port.check(operationName)).toEqual({ state: 'completed', output: request().output });
    const storage = fake.requests.find((r) => r.path.startsWith('/storage/'))!;
    expect(storage.host).toMatch(/^localhost:/);
    expect(storage.apiKey).toBeUndefined();
    expect(stored).toHaveLength(1);
  }, 60_000);

  // CheckClip has 60 s: a check made two fetches of up to 40 s each, and a timed-out CheckClip failed and refunded a
  // clip Google had billed (issue 46).
  it('a stalled download of a finished clip ends inside the check’s budget as "running": the clip is fetched again later', async () => {
    const { WORKFLOWS } = await import('../../lambdas/workflows.js');
    expect(CHECK_FETCH_BUDGET_MS).toBeLessThanOrEqual(WORKFLOWS.video.tasks.CheckClip.timeoutSeconds * 1000 - 20_000);
    fake.stallDownloads = true;
    const port = omni({ fetchBudgetMs: 3_000 });
    const { operationName } = await port.start(request());
    expect(await port.check(operationName)).toEqual({ state: 'running' });
    await fake.rendered(fake.interactions[0]!.id);
    const began = Date.now();
    expect(await port.check(operationName)).toEqual({ state: 'running' });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(fake.requests.filter((r) => r.path.endsWith(':download'))).toHaveLength(1);
    expect(stored).toEqual([]);
    fake.stallDownloads = false;
    expect(await port.check(operationName)).toEqual({ state: 'completed', output: request().output });
  }, 60_000);

  it('an interaction refused by the safety policies is a Content Policy Violation; one that failed otherwise is a failure', async () => {
    fake.checksUntilDone = 0;
    const port = omni();
    const refused = await port.check((await port.start(request({ prompt: 'refuse me please' }))).operationName);
    expect(refused).toMatchObject({ state: 'failed', error: { kind: 'content_policy', message: CONTENT_POLICY_MESSAGE } });
    const broken = await port.check((await port.start(request({ prompt: 'operation error' }))).operationName);
    expect(broken).toMatchObject({ state: 'failed', error: { kind: 'failed' } });
    expect((broken as { error: Error }).error.message).not.toMatch(/internal error/);
    expect(stored).toEqual([]);
  });

  it('an interaction that never finishes stays running (the workflow’s deadline then fails and refunds it)', async () => {
    const port = omni();
    const { operationName } = await port.start(request({ prompt: 'never finishes' }));
    for (let check = 0; check < 3; check++) expect(await port.check(operationName)).toEqual({ state: 'running' });
  });
});

describe('configuration', () => {
  it('google on a port needs the key secret, named when missing', () => {
    expect(() => readProviderConfig({ PROVIDER_VIDEO: 'google' })).toThrow(/GOOGLE_API_KEY_SECRET/);
    expect(readProviderConfig({ PROVIDER_IMAGE: 'google', PROVIDER_EDIT: 'google', GOOGLE_API_KEY_SECRET: 'modelloop/prod/google', GOOGLE_VIDEO_RESOLUTION: '1080p' }).google).toEqual({
      apiKeySecret: 'modelloop/prod/google',
      apiKey: undefined,
      baseUrl: undefined,
      imageModel: GOOGLE_DEFAULTS.imageModel,
      imageMaxSize: '1K',
      textModel: GOOGLE_DEFAULTS.textModel,
      videoModel: GOOGLE_DEFAULTS.videoModel,
      videoResolution: '1080p',
    });
    expect(() => readProviderConfig({ PROVIDER_EDIT: 'google', GOOGLE_API_KEY: 'k', GOOGLE_API_BASE_URL: 'http://example.com' })).toThrow(/GOOGLE_API_BASE_URL/);
    expect(() => readProviderConfig({ PROVIDER_VIDEO: 'google', GOOGLE_API_KEY: 'k', GOOGLE_VIDEO_RESOLUTION: '8k' })).toThrow(/GOOGLE_VIDEO_RESOLUTION/);
  });

  it('the registry serves edits from Gemini when PROVIDER_EDIT=google', async () => {
    const providers = getProviders({ PROVIDER_EDIT: 'google', GOOGLE_API_KEY: FAKE_GOOGLE_API_KEY, GOOGLE_API_BASE_URL: fake.baseUrl });
    const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ddd' } }).png().toBuffer();
    const output = await providers.edit.edit({ image: { bytes: photo, mimeType: 'image/png' }, instruction: 'add a soft shadow' });
    expect(output.model).toBe(`google:${GOOGLE_DEFAULTS.imageModel}`);
    expect(providers.video.planClips(16)).toHaveLength(1);
  });
});
