// Contract tests of the Amazon Bedrock adapters (Stability image services, Luma Ray2) on the documented request
// and response shapes. The Bedrock and S3 clients are mocked with aws-sdk-client-mock; nothing leaves the machine.
import {
  AccessDeniedException,
  BedrockRuntimeClient,
  GetAsyncInvokeCommand,
  InvokeModelCommand,
  ServiceUnavailableException,
  StartAsyncInvokeCommand,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planEdit } from '../../lambdas/providers/bedrock/edit-instruction.js';
import { toProviderError } from '../../lambdas/providers/bedrock/errors.js';
import { KEYFRAME_MAX_BASE64_CHARS, planClips, plannedSeconds } from '../../lambdas/providers/bedrock/luma-request.js';
import { invocationFolder } from '../../lambdas/providers/bedrock/luma-status.js';
import { createLumaVideo } from '../../lambdas/providers/bedrock/luma-video.js';
import { createStabilityEdit } from '../../lambdas/providers/bedrock/stability-edit.js';
import { createStabilityUpscale, fastUpscaleInputSize } from '../../lambdas/providers/bedrock/stability-upscale.js';
import { CONTENT_POLICY_MESSAGE, ProviderError, type ImageInput, type VideoStartRequest } from '../../lambdas/providers/ports.js';

const bedrock = mockClient(BedrockRuntimeClient);
const client = new BedrockRuntimeClient({ region: 'us-west-2' });

beforeEach(() => {
  bedrock.reset();
});
afterEach(() => {
  bedrock.reset();
});

async function image(width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<ImageInput> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .toFormat(format)
    .toBuffer();
  return { bytes, mimeType: format === 'jpeg' ? 'image/jpeg' : `image/${format}` };
}

/** A photo full of fine detail (sensor noise), the worst case for PNG: a 12 MP one is tens of megabytes as PNG. */
async function noisyPhoto(width: number, height: number): Promise<ImageInput> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { bytes, mimeType: 'image/png' };
}

async function sizeOf(base64OrBuffer: string | Buffer) {
  const buffer = typeof base64OrBuffer === 'string' ? Buffer.from(base64OrBuffer, 'base64') : base64OrBuffer;
  const { width, height, format } = await sharp(buffer).metadata();
  return { width, height, format };
}

/** A documented Stability response body: { seeds, finish_reasons, images }. */
async function stabilityResponse(options: { width?: number; height?: number; finishReason?: string | null } = {}) {
  const result = await image(options.width ?? 100, options.height ?? 100);
  const json = {
    seeds: [2130420379],
    finish_reasons: [options.finishReason ?? null],
    images: options.finishReason ? [] : [result.bytes.toString('base64')],
  };
  return { body: new TextEncoder().encode(JSON.stringify(json)) } as never;
}

function sentBody(call = 0): Record<string, unknown> {
  const input = bedrock.commandCalls(InvokeModelCommand)[call]!.args[0].input;
  return JSON.parse(input.body as string) as Record<string, unknown>;
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('edit instructions', () => {
  it.each([
    ['Remove the background', { kind: 'remove-background' }],
    ['please make the background transparent.', { kind: 'remove-background' }],
    ['Replace the jacket with a red leather jacket', { kind: 'search-replace', searchPrompt: 'jacket', prompt: 'a red leather jacket' }],
    ['swap the sneakers for white loafers', { kind: 'search-replace', searchPrompt: 'sneakers', prompt: 'white loafers' }],
    ['Change the background to a sunny beach', { kind: 'search-replace', searchPrompt: 'background', prompt: 'a sunny beach' }],
    ['change the dress to navy', { kind: 'search-recolor', selectPrompt: 'dress', prompt: 'navy dress' }],
    ['Make the shirt dark blue', { kind: 'search-recolor', selectPrompt: 'shirt', prompt: 'dark blue shirt' }],
    ['make the denim jacket pink', { kind: 'search-recolor', selectPrompt: 'denim jacket', prompt: 'pink denim jacket' }],
    ['remove the hat', { kind: 'search-replace', searchPrompt: 'hat', prompt: 'nothing, a seamless continuation of the surrounding background' }],
  ])('maps %j', (instruction, operation) => {
    expect(planEdit(instruction)).toEqual(operation);
  });

  it.each(['make it pop', 'more cinematic', '', 'make the shirt fancy'])('refuses %j', (instruction) => {
    expect(planEdit(instruction)).toBeNull();
  });
});

describe('Stability edit (InvokeModel)', () => {
  const edit = createStabilityEdit({ client });

  it('sends Search and Replace with the documented body and returns the edit at the input size', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse({ width: 300, height: 500 }));
    const input = await image(360, 640);

    const output = await edit.edit({ image: input, instruction: 'Replace the jacket with a leather coat' });

    const call = bedrock.commandCalls(InvokeModelCommand)[0]!.args[0].input;
    expect(call.modelId).toBe('us.stability.stable-image-search-replace-v1:0');
    expect(call.contentType).toBe('application/json');
    expect(call.accept).toBe('application/json');
    expect(sentBody()).toEqual({
      image: input.bytes.toString('base64'),
      prompt: 'a leather coat',
      search_prompt: 'jacket',
      output_format: 'png',
    });
    expect(output).toMatchObject({ mimeType: 'image/png', width: 360, height: 640, model: 'bedrock:us.stability.stable-image-search-replace-v1:0' });
    expect(await sizeOf(output.bytes)).toEqual({ width: 360, height: 640, format: 'png' });
  });

  it('sends Remove Background and Search and Recolor with their documented bodies', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse());
    const input = await image(200, 300, 'jpeg');

    await edit.edit({ image: input, instruction: 'remove the background' });
    await edit.edit({ image: input, instruction: 'make the skirt emerald green' });

    const [removal, recolor] = bedrock.commandCalls(InvokeModelCommand).map((call) => call.args[0].input);
    expect(removal!.modelId).toBe('us.stability.stable-image-remove-background-v1:0');
    expect(sentBody(0)).toEqual({ image: input.bytes.toString('base64'), output_format: 'png' });
    expect(recolor!.modelId).toBe('us.stability.stable-image-search-recolor-v1:0');
    expect(sentBody(1)).toEqual({
      image: input.bytes.toString('base64'),
      prompt: 'emerald green skirt',
      select_prompt: 'skirt',
      output_format: 'png',
    });
  });

  it('shrinks an image over 9,437,184 pixels before sending and restores its size', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse());
    const input = await image(3600, 2700);

    const output = await edit.edit({ image: input, instruction: 'replace the hat with a cap' });

    const sent = await sizeOf(sentBody().image as string);
    expect(sent.width! * sent.height!).toBeLessThanOrEqual(9_437_184);
    expect(sent.width! / sent.height!).toBeCloseTo(3600 / 2700, 2);
    expect([output.width, output.height]).toEqual([3600, 2700]);
  });

  it('keeps the request of a 12 MP photo under Bedrock\'s 25 MB, and gives back the photo\'s own size', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse());
    const photo = await noisyPhoto(4000, 3000);

    const output = await edit.edit({ image: photo, instruction: 'replace the hat with a cap' });

    const body = bedrock.commandCalls(InvokeModelCommand)[0]!.args[0].input.body as string;
    expect(Buffer.byteLength(body)).toBeLessThan(25 * 1000 * 1000);
    const sent = await sizeOf(sentBody().image as string);
    expect(sent.width! * sent.height!).toBeLessThanOrEqual(9_437_184);
    expect(sent.width! * sent.height!).toBeGreaterThan(9_000_000);
    expect([output.width, output.height]).toEqual([4000, 3000]);
  }, 90_000);

  it('refuses an instruction it does not understand, and an image outside 1:2.5–2.5:1, without calling Bedrock', async () => {
    const unsupported = await rejection(edit.edit({ image: await image(300, 300), instruction: 'make it more vibrant' }));
    expect(unsupported.kind).toBe('unsupported');
    const tooNarrow = await rejection(edit.edit({ image: await image(100, 400), instruction: 'remove the background' }));
    expect(tooNarrow.kind).toBe('unsupported');
    expect(bedrock.commandCalls(InvokeModelCommand)).toHaveLength(0);
  });

  it.each(['Filter reason: input image', 'Filter reason: prompt', 'Filter reason: output image'])(
    'maps finish_reasons %j to the content policy error',
    async (finishReason) => {
      bedrock.on(InvokeModelCommand).resolves(await stabilityResponse({ finishReason }));
      const error = await rejection(edit.edit({ image: await image(300, 300), instruction: 'remove the background' }));
      expect(error.kind).toBe('content_policy');
      expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
    },
  );

  it('maps an "Inference error" finish reason to transient', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse({ finishReason: 'Inference error' }));
    expect((await rejection(edit.edit({ image: await image(300, 300), instruction: 'remove the background' }))).kind).toBe('transient');
  });

  it('maps a "blocked by our content filters" exception to the content policy error', async () => {
    bedrock
      .on(InvokeModelCommand)
      .rejects(new ValidationException({ message: 'This request has been blocked by our content filters.', $metadata: { httpStatusCode: 400 } }));
    const error = await rejection(edit.edit({ image: await image(300, 300), instruction: 'remove the background' }));
    expect(error.kind).toBe('content_policy');
    expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
  });

  it('maps throttling and unavailability to transient', async () => {
    bedrock
      .on(InvokeModelCommand)
      .rejectsOnce(new ThrottlingException({ message: 'Too many requests, please wait before trying again.', $metadata: { httpStatusCode: 429 } }))
      .rejectsOnce(new ServiceUnavailableException({ message: 'Service unavailable', $metadata: { httpStatusCode: 503 } }));
    const request = { image: await image(300, 300), instruction: 'remove the background' };
    expect((await rejection(edit.edit(request))).kind).toBe('transient');
    expect((await rejection(edit.edit(request))).kind).toBe('transient');
  });

  it('maps any other error to failed without leaking the provider text', async () => {
    const providerText = 'User: arn:aws:iam::123456789012:role/secret-role is not authorized to perform: bedrock:InvokeModel';
    bedrock.on(InvokeModelCommand).rejects(new AccessDeniedException({ message: providerText, $metadata: { httpStatusCode: 403 } }));
    const error = await rejection(edit.edit({ image: await image(300, 300), instruction: 'remove the background' }));
    expect(error.kind).toBe('failed');
    expect(error.message).not.toContain('arn:aws');
    expect(error.message).not.toContain('InvokeModel');
  });

  it('treats a response without an image as failed', async () => {
    bedrock.on(InvokeModelCommand).resolves({ body: new TextEncoder().encode('{"seeds":[1],"finish_reasons":[null],"images":[]}') } as never);
    expect((await rejection(edit.edit({ image: await image(300, 300), instruction: 'remove the background' }))).kind).toBe('failed');
  });
});

describe('Stability Fast Upscale (InvokeModel)', () => {
  const upscale = createStabilityUpscale({ client });

  it('sends a quarter-size image within the documented input limits', () => {
    expect(fastUpscaleInputSize({ width: 1440, height: 2560 })).toEqual({ width: 360, height: 640 });
    expect(fastUpscaleInputSize({ width: 2880, height: 5120 })).toEqual({ width: 720, height: 1280 });
    const for8k = fastUpscaleInputSize({ width: 5760, height: 10240 });
    expect(for8k.width * for8k.height).toBeLessThanOrEqual(1_048_576);
    expect(Math.max(for8k.width, for8k.height)).toBeLessThanOrEqual(1536);
    expect(for8k).toEqual({ width: 768, height: 1365 });
  });

  it('upscales to exactly 2k with the documented body', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse({ width: 1440, height: 2560 }));

    const output = await upscale.upscale({ image: await image(720, 1280, 'webp'), size: { width: 1440, height: 2560 } });

    const call = bedrock.commandCalls(InvokeModelCommand)[0]!.args[0].input;
    expect(call.modelId).toBe('us.stability.stable-fast-upscale-v1:0');
    const body = sentBody();
    expect(Object.keys(body).sort()).toEqual(['image', 'output_format']);
    expect(body.output_format).toBe('png');
    expect(await sizeOf(body.image as string)).toEqual({ width: 360, height: 640, format: 'png' });
    expect(output).toMatchObject({ width: 1440, height: 2560, mimeType: 'image/png', model: 'bedrock:us.stability.stable-fast-upscale-v1:0' });
    expect(await sizeOf(output.bytes)).toEqual({ width: 1440, height: 2560, format: 'png' });
  });

  it('makes 8k (5760×10240) by Lanczos from the largest fast-upscale result', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse({ width: 3072, height: 5460 }));

    const output = await upscale.upscale({ image: await image(1440, 2560), size: { width: 5760, height: 10240 } });

    expect(await sizeOf(sentBody().image as string)).toMatchObject({ width: 768, height: 1365 });
    expect(await sizeOf(output.bytes)).toEqual({ width: 5760, height: 10240, format: 'png' });
  }, 30_000);

  it('maps a content filter refusal of the upscale to the content policy error', async () => {
    bedrock.on(InvokeModelCommand).resolves(await stabilityResponse({ finishReason: 'Filter reason: input image' }));
    const error = await rejection(upscale.upscale({ image: await image(720, 1280), size: { width: 1440, height: 2560 } }));
    expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
  });
});

describe('Luma Ray2 video (StartAsyncInvoke / GetAsyncInvoke)', () => {
  const arn = 'arn:aws:bedrock:us-west-2:123456789012:async-invoke/abc123def456';

  async function videoRequest(overrides: Partial<VideoStartRequest> = {}): Promise<VideoStartRequest> {
    return {
      image: await image(720, 1280, 'jpeg'),
      prompt: 'Catwalk',
      durationSeconds: 8,
      aspectRatio: '9:16',
      size: { width: 720, height: 1280 },
      output: { bucket: 'results-bucket', key: 'videos/user-1/job-1/raw.mp4' },
      ...overrides,
    };
  }

  it('plans 5 → 5s, 8 → 9s, 16 → 9s + 9s keyed from the last frame and ending on the product image', () => {
    expect(planClips(5)).toEqual([{ duration: '5s', seconds: 5, keyframe: 'source' }]);
    expect(planClips(8)).toEqual([{ duration: '9s', seconds: 9, keyframe: 'source' }]);
    expect(planClips(16)).toEqual([
      { duration: '9s', seconds: 9, keyframe: 'source' },
      { duration: '9s', seconds: 9, keyframe: 'previous-clip-last-frame', endKeyframe: 'source' },
    ]);
    expect(plannedSeconds(planClips(16))).toBe(18);
    for (const bad of [0, -5, 2.5, 17]) expect(() => planClips(bad)).toThrow(ProviderError);
  });

  it('starts the clip with the documented modelInput, keyframe and output location', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: arn });
    const video = createLumaVideo({ client });
    const request = await videoRequest();

    const started = await video.start(request);

    expect(started).toEqual({ operationName: arn, model: 'bedrock:luma.ray-v2:0', seconds: 9 });
    const input = bedrock.commandCalls(StartAsyncInvokeCommand)[0]!.args[0].input;
    expect(input.modelId).toBe('luma.ray-v2:0');
    expect(input.outputDataConfig).toEqual({ s3OutputDataConfig: { s3Uri: 's3://results-bucket/videos/user-1/job-1/raw' } });
    expect(input.clientRequestToken).toMatch(/^[a-f0-9]{64}$/);
    const modelInput = input.modelInput as Record<string, unknown>;
    expect(Object.keys(modelInput).sort()).toEqual(['aspect_ratio', 'duration', 'keyframes', 'loop', 'prompt', 'resolution']);
    expect(modelInput).toMatchObject({ aspect_ratio: '9:16', loop: true, duration: '9s', resolution: '540p' });
    expect(modelInput.prompt).toMatch(/catwalk/i);
    expect(modelInput.keyframes).toEqual({
      frame0: { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: request.image.bytes.toString('base64') } },
    });
  });

  it('starts 5 s as "5s", chains the second clip of 16 s and refuses a clip beyond the plan', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: arn });
    const video = createLumaVideo({ client });

    await video.start(await videoRequest({ durationSeconds: 5, prompt: 'a slow turn to the left', aspectRatio: '1:1' }));
    await video.start({ ...(await videoRequest({ durationSeconds: 16, endImage: await image(720, 1280, 'jpeg') })), clipIndex: 1 });
    const beyond = await rejection(video.start({ ...(await videoRequest({ durationSeconds: 16 })), clipIndex: 2 }));

    const inputs = bedrock.commandCalls(StartAsyncInvokeCommand).map((call) => call.args[0].input.modelInput as Record<string, unknown>);
    expect(inputs[0]).toMatchObject({ duration: '5s', aspect_ratio: '1:1', loop: true });
    expect(inputs[0]!.prompt).toMatch(/^a slow turn to the left\./);
    expect(inputs[1]).toMatchObject({ duration: '9s' });
    expect(beyond.kind).toBe('unsupported');
    expect(inputs).toHaveLength(2);
  });

  it('closes a 16 s chain with keyframes: no clip loops onto itself, and the last clip ends on the product image', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: arn });
    const video = createLumaVideo({ client });
    const product = await image(720, 1280, 'jpeg');
    const previousLastFrame = await image(720, 1280, 'png');

    await video.start(await videoRequest({ durationSeconds: 16, image: product }));
    await video.start({ ...(await videoRequest({ durationSeconds: 16, image: previousLastFrame, endImage: product })), clipIndex: 1 });

    type Keyframes = { frame0: { source: { data: string } }; frame1?: { source: { media_type: string; data: string } } };
    const inputs = bedrock.commandCalls(StartAsyncInvokeCommand).map((call) => call.args[0].input.modelInput as { loop: boolean; keyframes: Keyframes });
    expect(inputs.map((input) => input.loop)).toEqual([false, false]);
    expect(inputs[0]!.keyframes.frame0.source.data).toBe(product.bytes.toString('base64'));
    expect(inputs[0]!.keyframes.frame1).toBeUndefined();
    expect(inputs[1]!.keyframes.frame0.source.data).toBe(previousLastFrame.bytes.toString('base64'));
    expect(inputs[1]!.keyframes.frame1).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: product.bytes.toString('base64') } });
  });

  it('enlarges a very thin picture to 512 px without passing 4096 px on the long side (padded, not cut)', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: arn });
    await createLumaVideo({ client }).start(await videoRequest({ image: await image(100, 2000, 'png') }));
    const frame0 = (bedrock.commandCalls(StartAsyncInvokeCommand)[0]!.args[0].input.modelInput as {
      keyframes: { frame0: { source: { data: string } } };
    }).keyframes.frame0.source;
    const { width, height } = await sizeOf(frame0.data);
    expect(Math.max(width!, height!)).toBeLessThanOrEqual(4096);
    expect(Math.min(width!, height!)).toBeGreaterThanOrEqual(512);
  });

  it('caps each keyframe at its documented size, whatever the photo', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: arn });
    const photo = await noisyPhoto(2400, 2400);
    expect(photo.bytes.length).toBeGreaterThan(KEYFRAME_MAX_BASE64_CHARS);
    await createLumaVideo({ client }).start(await videoRequest({ image: photo, aspectRatio: '1:1' }));
    const frame0 = (bedrock.commandCalls(StartAsyncInvokeCommand)[0]!.args[0].input.modelInput as {
      keyframes: { frame0: { source: { media_type: string; data: string } } };
    }).keyframes.frame0.source;
    expect(frame0.data.length).toBeLessThanOrEqual(KEYFRAME_MAX_BASE64_CHARS);
    expect(['image/jpeg', 'image/png']).toContain(frame0.media_type);
    expect(await sizeOf(frame0.data)).toMatchObject({ width: 2400, height: 2400 });
  }, 60_000);

  it('sends the same idempotency token when the same clip is started again', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: arn });
    const video = createLumaVideo({ client });
    const request = await videoRequest();
    await video.start(request);
    await video.start(request);
    await video.start({ ...request, output: { bucket: 'results-bucket', key: 'videos/user-1/job-2/raw.mp4' } });
    const tokens = bedrock.commandCalls(StartAsyncInvokeCommand).map((call) => call.args[0].input.clientRequestToken);
    expect(tokens[0]).toBe(tokens[1]);
    expect(tokens[2]).not.toBe(tokens[0]);
  });

  it('converts a WebP keyframe to PNG and grows a small one to 512 px', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: arn });
    await createLumaVideo({ client }).start(await videoRequest({ image: await image(300, 400, 'webp') }));
    const frame0 = (bedrock.commandCalls(StartAsyncInvokeCommand)[0]!.args[0].input.modelInput as {
      keyframes: { frame0: { source: { media_type: string; data: string } } };
    }).keyframes.frame0.source;
    expect(frame0.media_type).toBe('image/png');
    expect(await sizeOf(frame0.data)).toMatchObject({ width: 512, format: 'png' });
  });

  it('reports InProgress as running and Completed with the exact MP4 location', async () => {
    bedrock
      .on(GetAsyncInvokeCommand)
      .resolvesOnce({ invocationArn: arn, status: 'InProgress', outputDataConfig: { s3OutputDataConfig: { s3Uri: 's3://results-bucket/videos/user-1/job-1/raw' } } } as never)
      .resolvesOnce({
        invocationArn: arn,
        status: 'Completed',
        outputDataConfig: { s3OutputDataConfig: { s3Uri: 's3://results-bucket/videos/user-1/job-1/raw/abc123def456' } },
      } as never);
    const video = createLumaVideo({ client });

    expect(await video.check(arn)).toEqual({ state: 'running' });
    expect(await video.check(arn)).toEqual({
      state: 'completed',
      output: { bucket: 'results-bucket', key: 'videos/user-1/job-1/raw/abc123def456/output.mp4' },
    });
    expect(bedrock.commandCalls(GetAsyncInvokeCommand)[0]!.args[0].input).toEqual({ invocationArn: arn });
  });

  it('finds the MP4 in the invocation folder when it can list keys', async () => {
    bedrock.on(GetAsyncInvokeCommand).resolves({
      invocationArn: arn,
      status: 'Completed',
      outputDataConfig: { s3OutputDataConfig: { s3Uri: 's3://results-bucket/videos/user-1/job-1/raw' } },
    } as never);
    const listed: string[][] = [];
    const listKeys = async (bucket: string, prefix: string) => {
      listed.push([bucket, prefix]);
      return ['videos/user-1/job-1/raw/abc123def456/manifest.json', 'videos/user-1/job-1/raw/abc123def456/output.mp4'];
    };

    const status = await createLumaVideo({ client, listKeys }).check(arn);

    expect(listed).toEqual([['results-bucket', 'videos/user-1/job-1/raw/abc123def456/']]);
    expect(status).toEqual({ state: 'completed', output: { bucket: 'results-bucket', key: 'videos/user-1/job-1/raw/abc123def456/output.mp4' } });
  });

  it('knows the invocation folder whether or not Bedrock reports it', () => {
    expect(invocationFolder(arn, 's3://b/p')).toEqual({ bucket: 'b', key: 'p/abc123def456' });
    expect(invocationFolder(arn, 's3://b/p/abc123def456/')).toEqual({ bucket: 'b', key: 'p/abc123def456' });
    expect(invocationFolder(arn, 's3://b')).toEqual({ bucket: 'b', key: 'abc123def456' });
  });

  it('maps a content-filter failure to the content policy error, and other failures to a safe message', async () => {
    const leaked = 'Internal failure at worker i-0abc123 (trace 42)';
    bedrock
      .on(GetAsyncInvokeCommand)
      .resolvesOnce({ invocationArn: arn, status: 'Failed', failureMessage: 'The input image was blocked by our content filters.' } as never)
      .resolvesOnce({ invocationArn: arn, status: 'Failed', failureMessage: leaked } as never);
    const video = createLumaVideo({ client });

    const refused = await video.check(arn);
    const failed = await video.check(arn);

    expect(refused).toEqual({ state: 'failed', error: expect.objectContaining({ kind: 'content_policy', message: CONTENT_POLICY_MESSAGE }) });
    expect(failed.state).toBe('failed');
    const error = (failed as { error: ProviderError }).error;
    expect(error.kind).toBe('failed');
    expect(error.message).not.toContain('i-0abc123');
  });

  it('maps throttled start and check calls to transient', async () => {
    bedrock.on(StartAsyncInvokeCommand).rejects(new ThrottlingException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 429 } }));
    bedrock.on(GetAsyncInvokeCommand).rejects(new ServiceUnavailableException({ message: 'down', $metadata: { httpStatusCode: 503 } }));
    const video = createLumaVideo({ client });
    expect((await rejection(video.start(await videoRequest()))).kind).toBe('transient');
    expect((await rejection(video.check(arn))).kind).toBe('transient');
  });
});

describe('error mapping', () => {
  it('treats network failures and 5xx as transient, unknown errors as failed', () => {
    expect(toProviderError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })).kind).toBe('transient');
    expect(toProviderError({ name: 'SomethingNew', $metadata: { httpStatusCode: 502 } }).kind).toBe('transient');
    expect(toProviderError(new Error('boom')).kind).toBe('failed');
    expect(toProviderError('weird').kind).toBe('failed');
  });
});
