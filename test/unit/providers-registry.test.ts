// The provider registry: adapter selection by environment, and fail-fast configuration errors naming the variable.
import { BedrockRuntimeClient, InvokeModelCommand, StartAsyncInvokeCommand } from '@aws-sdk/client-bedrock-runtime';
import { S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImageOutput, VideoStartRequest } from '../../lambdas/providers/ports.js';
import { getProviders, readProviderConfig, type LocalEngine } from '../../lambdas/providers/registry.js';

const bedrock = mockClient(BedrockRuntimeClient);
afterEach(() => bedrock.reset());

const s3 = new S3Client({ region: 'us-west-2' });

function fakeLocalEngine(calls: string[]): LocalEngine {
  const result: ImageOutput = { bytes: Buffer.alloc(0), mimeType: 'image/png', width: 1, height: 1, model: 'local-engine' };
  return {
    onModelImage: { generate: async () => (calls.push('local:image'), result) },
    edit: { edit: async () => (calls.push('local:edit'), result) },
    upscale: { upscale: async () => (calls.push('local:upscale'), result) },
    video: {
      start: async () => (calls.push('local:video'), { operationName: 'local-op', model: 'local-engine' }),
      check: async () => ({ state: 'running' }),
    },
  };
}

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 800, channels: 3, background: '#888' } }).png().toBuffer();
}

describe('provider configuration', () => {
  it('defaults every port to the local engine', () => {
    expect(readProviderConfig({})).toEqual({ image: 'local', edit: 'local', upscale: 'local', video: 'local' });
  });

  it('reads the cloud choices and their settings', () => {
    expect(
      readProviderConfig({
        PROVIDER_IMAGE: 'fashn',
        PROVIDER_EDIT: 'bedrock',
        PROVIDER_UPSCALE: 'bedrock',
        PROVIDER_VIDEO: 'bedrock',
        BEDROCK_REGION: 'us-west-2',
        FASHN_API_URL: 'https://api.fashn.ai',
        FASHN_API_KEY_SECRET: 'modelloop/fashn',
        FASHN_OUTPUT_HOSTS: 'Images.Example.com, other.example',
      }),
    ).toEqual({
      image: 'fashn',
      edit: 'bedrock',
      upscale: 'bedrock',
      video: 'bedrock',
      bedrockRegion: 'us-west-2',
      fashn: { apiUrl: 'https://api.fashn.ai', apiKeySecret: 'modelloop/fashn', outputHosts: ['images.example.com', 'other.example'], loopback: false },
    });
  });

  it('reaches a loopback FASHN fake over http with the key itself, and nothing else over http', () => {
    expect(readProviderConfig({ PROVIDER_IMAGE: 'fashn', FASHN_API_URL: 'http://127.0.0.1:4010', FASHN_API_KEY: 'k' }).fashn).toEqual({
      apiUrl: 'http://127.0.0.1:4010',
      apiKey: 'k',
      outputHosts: [],
      loopback: true,
    });
    // A named secret wins over a key given in the environment.
    expect(readProviderConfig({ PROVIDER_IMAGE: 'fashn', FASHN_API_URL: 'https://api.fashn.ai', FASHN_API_KEY: 'k', FASHN_API_KEY_SECRET: 's' }).fashn).toMatchObject({
      apiKeySecret: 's',
      loopback: false,
    });
    expect(() => readProviderConfig({ PROVIDER_IMAGE: 'fashn', FASHN_API_URL: 'http://10.0.0.8:4010', FASHN_API_KEY: 'k' })).toThrow(/FASHN_API_URL must be an https/);
  });

  it.each([
    [{ PROVIDER_EDIT: 'bedrock' }, /environment variable BEDROCK_REGION is not set/],
    [{ PROVIDER_UPSCALE: 'bedrock' }, /BEDROCK_REGION/],
    [{ PROVIDER_VIDEO: 'bedrock', BEDROCK_REGION: '  ' }, /BEDROCK_REGION/],
    [{ PROVIDER_IMAGE: 'fashn', FASHN_API_KEY_SECRET: 's' }, /environment variable FASHN_API_URL is not set/],
    [{ PROVIDER_IMAGE: 'fashn', FASHN_API_URL: 'https://api.fashn.ai' }, /environment variable FASHN_API_KEY_SECRET is not set/],
    [{ PROVIDER_IMAGE: 'fashn', FASHN_API_URL: 'http://api.fashn.ai', FASHN_API_KEY_SECRET: 's' }, /FASHN_API_URL must be an https/],
    [{ PROVIDER_VIDEO: 'luma' }, /PROVIDER_VIDEO must be one of local, bedrock, google, fashn \(got "luma"\)/],
    [{ PROVIDER_VIDEO: 'fashn', FASHN_API_KEY_SECRET: 's' }, /environment variable FASHN_API_URL is not set/],
    [{ PROVIDER_IMAGE: 'bedrock' }, /PROVIDER_IMAGE must be one of local, fashn/],
  ])('fails fast on %j', (env, message) => {
    expect(() => getProviders(env, { s3 })).toThrow(message);
  });
});

describe('provider selection', () => {
  it('routes every port to the local engine by default and plans a video as one clip', async () => {
    const calls: string[] = [];
    const providers = getProviders({}, { s3, localEngine: fakeLocalEngine(calls) });
    const image = { bytes: await png(), mimeType: 'image/png' as const };

    await providers.edit.edit({ image, instruction: 'anything' });
    await providers.upscale.upscale({ image, size: { width: 1440, height: 2560 } });
    await providers.video.start({} as VideoStartRequest);

    expect(calls).toEqual(['local:edit', 'local:upscale', 'local:video']);
    expect(providers.video.planClips(16)).toEqual([{ seconds: 16, keyframe: 'source' }]);
    expect(bedrock.calls()).toHaveLength(0);
  });

  it('loads the local engine module itself when none is given', async () => {
    const providers = getProviders({}, { s3 });
    const upscaled = await providers.upscale.upscale({ image: { bytes: await png(), mimeType: 'image/png' }, size: { width: 144, height: 256 } });
    expect(upscaled).toMatchObject({ model: 'preview-engine', width: 144, height: 256 });
    expect(bedrock.calls()).toHaveLength(0);
  });

  it('routes edit to Stability on Bedrock and leaves the other ports local', async () => {
    const calls: string[] = [];
    const result = await sharp({ create: { width: 600, height: 800, channels: 4, background: '#0000' } }).png().toBuffer();
    bedrock.on(InvokeModelCommand).resolves({
      body: new TextEncoder().encode(JSON.stringify({ seeds: [1], finish_reasons: [null], images: [result.toString('base64')] })),
    } as never);
    const providers = getProviders({ PROVIDER_EDIT: 'bedrock', BEDROCK_REGION: 'us-west-2' }, { s3, localEngine: fakeLocalEngine(calls) });
    const image = { bytes: await png(), mimeType: 'image/png' as const };

    const edited = await providers.edit.edit({ image, instruction: 'remove the background' });
    await providers.upscale.upscale({ image, size: { width: 1440, height: 2560 } });

    expect(edited.model).toBe('bedrock:us.stability.stable-image-remove-background-v1:0');
    expect(bedrock.commandCalls(InvokeModelCommand)).toHaveLength(1);
    expect(calls).toEqual(['local:upscale']);
  });

  it('routes video to FASHN image-to-video, which plans 16 s as two chained 10 s clips', () => {
    const providers = getProviders(
      { PROVIDER_VIDEO: 'fashn', FASHN_API_URL: 'https://api.fashn.ai', FASHN_API_KEY_SECRET: 'modelloop/fashn' },
      { s3, localEngine: fakeLocalEngine([]) },
    );
    expect(providers.video.planClips(16)).toEqual([
      { seconds: 10, keyframe: 'source' },
      { seconds: 10, keyframe: 'previous-clip-last-frame' },
    ]);
    expect(providers.video.planClips(5)).toEqual([{ seconds: 5, keyframe: 'source' }]);
  });

  it('routes video to Luma Ray2, which plans 16 s as two chained 9 s clips', async () => {
    bedrock.on(StartAsyncInvokeCommand).resolves({ invocationArn: 'arn:aws:bedrock:us-west-2:1:async-invoke/xyz' });
    const providers = getProviders({ PROVIDER_VIDEO: 'bedrock', BEDROCK_REGION: 'us-west-2' }, { s3, localEngine: fakeLocalEngine([]) });

    expect(providers.video.planClips(16)).toEqual([
      { duration: '9s', seconds: 9, keyframe: 'source' },
      { duration: '9s', seconds: 9, keyframe: 'previous-clip-last-frame', endKeyframe: 'source' },
    ]);
    const started = await providers.video.start({
      image: { bytes: await png(), mimeType: 'image/png' },
      endImage: { bytes: await png(), mimeType: 'image/png' },
      prompt: 'Pivot',
      durationSeconds: 16,
      aspectRatio: '9:16',
      size: { width: 720, height: 1280 },
      output: { bucket: 'results', key: 'videos/u/j/clip-1.mp4' },
      clipIndex: 1,
    });

    expect(started.operationName).toBe('arn:aws:bedrock:us-west-2:1:async-invoke/xyz');
    expect(bedrock.commandCalls(StartAsyncInvokeCommand)[0]!.args[0].input.modelId).toBe('luma.ray-v2:0');
  });
});
