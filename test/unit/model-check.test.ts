// The model check `npm run providers:check` prints and the daily check in the cloud runs (lambdas/domain/operations/
// model-check.ts): each configured model asked of its provider, read with the dated tables, one line each. Google is
// its contract fake (models.get; a shut-down id answers 404 "is no longer available"), FASHN its contract fake
// (GET /v1/credits), Bedrock a mocked GetFoundationModel (modelLifecycle ACTIVE / LEGACY with endOfLifeTime).
import { BedrockClient, GetFoundationModelCommand, ResourceNotFoundException } from '@aws-sdk/client-bedrock';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockModelProbe, checkModels, fashnAccountProbe, formatLine, googleModelProbe, notServed } from '../../lambdas/domain/operations/model-check.js';
import { LUMA_RAY2_MODEL_ID } from '../../lambdas/providers/bedrock/luma-model.js';
import { DEFAULT_STABILITY_MODEL_IDS } from '../../lambdas/providers/bedrock/stability-models.js';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';
import { startFakeFashn, type FakeFashn } from '../support/fake-fashn.js';
import { FAKE_GOOGLE_API_KEY, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';

const GOOGLE_ONLY = { image: 'google', edit: 'google', upscale: 'local', video: 'google' };
let google: FakeGoogle;
let fashn: FakeFashn;
const bedrock = mockClient(BedrockClient);

beforeAll(async () => {
  [google, fashn] = await Promise.all([startFakeGoogle(), startFakeFashn()]);
});
afterAll(async () => {
  await Promise.all([google.close(), fashn.close()]);
  bedrock.restore();
});

const googleProbe = () => googleModelProbe(async () => FAKE_GOOGLE_API_KEY, google.baseUrl);

describe('the model check', () => {
  it('finds every default model served, one line each', async () => {
    const lines = await checkModels({ providers: GOOGLE_ONLY }, { google: googleProbe() });
    expect(lines.map(formatLine)).toEqual([
      `served        google ${GOOGLE_DEFAULTS.imageModel} (googleImageModel): google serves it`,
      `served        google ${GOOGLE_DEFAULTS.textModel} (googleTextModel): google serves it`,
      `served        google ${GOOGLE_DEFAULTS.videoModel} (googleVideoModel): google serves it`,
    ]);
    expect(notServed(lines)).toEqual([]);
    expect(google.requests.filter((request) => request.method === 'GET' && request.path.startsWith('/v1beta/models/')).map((request) => request.path)).toEqual(
      expect.arrayContaining([`/v1beta/models/${GOOGLE_DEFAULTS.videoModel}`]),
    );
  });

  it('reports a model Google has shut down as missing, with Google\'s own answer', async () => {
    const lines = await checkModels({ providers: GOOGLE_ONLY, google: { videoModel: 'veo-3.1-fast-generate-preview' } }, { google: googleProbe() });
    const video = lines.find((line) => line.model.setting === 'googleVideoModel')!;
    expect(video).toMatchObject({ availability: 'missing' });
    expect(video.detail).toMatch(/Google answered 404: .*is no longer available/);
    expect(notServed(lines)).toEqual([video]);
  });

  it('reports a model within 60 days of its shutdown as shutting down on its date, naming the replacement', async () => {
    const now = new Date('2027-04-01T00:00:00Z');
    google.today = () => now;
    try {
      const lines = await checkModels({ providers: GOOGLE_ONLY, google: { textModel: 'gemini-3.1-flash-lite' } }, { google: googleProbe() }, now);
      const text = lines.find((line) => line.model.setting === 'googleTextModel')!;
      expect(text).toMatchObject({ availability: 'shutting down', date: '2027-05-07', replacement: 'gemini-3.5-flash-lite' });
      expect(formatLine(text)).toMatch(/^shutting down on 2027-05-07, use gemini-3\.5-flash-lite google gemini-3\.1-flash-lite \(googleTextModel\)/);
      // Past the date the fake, like Google, no longer serves it.
      const later = new Date('2027-05-08T00:00:00Z');
      google.today = () => later;
      const after = await checkModels({ providers: GOOGLE_ONLY, google: { textModel: 'gemini-3.1-flash-lite' } }, { google: googleProbe() }, later);
      expect(after.find((line) => line.model.setting === 'googleTextModel')).toMatchObject({ availability: 'missing' });
    } finally {
      google.today = () => new Date();
    }
  });

  it('asks FASHN for the key and balance once, and says its models come from the table', async () => {
    const lines = await checkModels(
      { providers: { image: 'fashn', edit: 'local', upscale: 'local', video: 'fashn' } },
      { fashnAccount: fashnAccountProbe(fashn.baseUrl, async () => 'fa-fake-key-for-tests') },
    );
    expect(lines.map((line) => [line.model.id, line.availability])).toEqual([
      ['product-to-model', 'served'],
      ['image-to-video', 'served'],
    ]);
    expect(lines[0]!.detail).toMatch(/key accepted, 1000 credits left; FASHN lists no models/);
    const refused = await checkModels({ providers: { image: 'fashn', edit: 'local', upscale: 'local', video: 'local' } }, { fashnAccount: fashnAccountProbe(fashn.baseUrl, async () => 'wrong') });
    expect(refused).toMatchObject([{ availability: 'missing', detail: 'FASHN refused the API key (401 UnauthorizedAccess)' }]);
  });

  it('reads Bedrock\'s model lifecycle: ACTIVE is served, LEGACY shuts down on its end of life, an unknown model is missing', async () => {
    bedrock.reset();
    bedrock.on(GetFoundationModelCommand).callsFake((input: { modelIdentifier: string }) => {
      if (input.modelIdentifier === LUMA_RAY2_MODEL_ID) return { modelDetails: { modelId: input.modelIdentifier, modelLifecycle: { status: 'LEGACY', endOfLifeTime: new Date('2027-01-15T00:00:00Z') } } };
      if (input.modelIdentifier.includes('remove-background')) throw new ResourceNotFoundException({ message: 'Model not found', $metadata: {} });
      return { modelDetails: { modelId: input.modelIdentifier, modelLifecycle: { status: 'ACTIVE' } } };
    });
    const lines = await checkModels({ providers: { image: 'local', edit: 'bedrock', upscale: 'bedrock', video: 'bedrock' } }, { bedrock: bedrockModelProbe('us-west-2') });
    const of = (id: string) => lines.find((line) => line.model.id === id)!;
    expect(of(DEFAULT_STABILITY_MODEL_IDS.fastUpscale)).toMatchObject({ availability: 'served' });
    expect(of(DEFAULT_STABILITY_MODEL_IDS.removeBackground)).toMatchObject({ availability: 'missing', detail: 'Bedrock does not offer stability.stable-image-remove-background-v1:0' });
    expect(of(LUMA_RAY2_MODEL_ID)).toMatchObject({ availability: 'shutting down', date: '2027-01-15' });
    // A `us.` id is a cross-region inference profile: its foundation model is what Bedrock is asked about.
    expect(bedrock.commandCalls(GetFoundationModelCommand).map((call) => call.args[0].input.modelIdentifier)).toContain('stability.stable-fast-upscale-v1:0');
  });

  it('says a provider it could not ask is unchecked, which counts as not served', async () => {
    const lines = await checkModels({ providers: GOOGLE_ONLY }, { google: googleModelProbe(async () => FAKE_GOOGLE_API_KEY, 'http://127.0.0.1:9') });
    expect(lines.every((line) => line.availability === 'unchecked')).toBe(true);
    expect(notServed(lines)).toHaveLength(3);
  });
});
