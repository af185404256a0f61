// Contract tests of the FASHN image-to-video adapter against a fake FASHN API on 127.0.0.1 (a free port) that speaks
// the documented /v1/run and /v1/status shapes and serves the MP4 from a "CDN" path; and the video workflow's own ASL
// (aws-local-stepfunctions, as the twin runs it) with the adapter's check as its CheckClip step, so an error status and
// a prediction that never finishes end as failed outputs, which CompleteJob refunds. Nothing leaves the machine.
import '../../lib/local/promise-with-resolvers.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { StateMachine } from 'aws-local-stepfunctions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VIDEO_ERROR } from '../../lambdas/domain/video/workflow-errors.js';
import { TEST_FETCH_TARGETS_ENV } from '../../lambdas/net/safe-fetch.js';
import { createFashnVideo, planFashnClips } from '../../lambdas/providers/fashn/fashn-video.js';
import { CONTENT_POLICY_MESSAGE, ProviderError, type S3Location, type VideoStartRequest, type VideoStatus } from '../../lambdas/providers/ports.js';
import { loadDefinition } from '../../lib/local/stepfunctions.js';
import { json, readBody } from '../support/loopback-http.js';

const API_KEY = 'fa-video-key';
/** The start of a real MP4: a box of type `ftyp` (isom brand). */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(64, 7)]);

interface Scenario {
  /** Status answers in order; the last one repeats. */
  statuses: unknown[];
  statusHttp?: { status: number; body: unknown };
  cdn?: { contentType: string; body: Buffer };
}

let server: Server;
let baseUrl: string;
let scenario: Scenario;
let runBodies: Array<{ model_name?: string; inputs?: Record<string, unknown> }>;
let statusCalls: number;
let stored: Array<{ location: S3Location; bytes: Buffer }>;

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', baseUrl);
  if (url.pathname.startsWith('/cdn/')) {
    const cdn = scenario.cdn ?? { contentType: 'video/mp4', body: MP4 };
    response.writeHead(200, { 'Content-Type': cdn.contentType, 'Content-Length': cdn.body.length }).end(cdn.body);
    return;
  }
  if (request.headers.authorization !== `Bearer ${API_KEY}`) return json(response, 401, { error: 'UnauthorizedAccess', message: 'Invalid token' });
  if (request.method === 'POST' && url.pathname === '/v1/run') {
    runBodies.push(JSON.parse(await readBody(request)) as { model_name?: string; inputs?: Record<string, unknown> });
    return json(response, 200, { id: `vid-${runBodies.length}`, error: null });
  }
  if (request.method === 'GET' && url.pathname.startsWith('/v1/status/')) {
    if (scenario.statusHttp) return json(response, scenario.statusHttp.status, scenario.statusHttp.body);
    const answer = scenario.statuses[Math.min(statusCalls, scenario.statuses.length - 1)];
    statusCalls += 1;
    return json(response, 200, answer);
  }
  json(response, 404, { error: 'NotFound', message: 'Resource not found' });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => response.writeHead(599).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  process.env[TEST_FETCH_TARGETS_ENV] = `127.0.0.1:${port}`;
});

afterAll(async () => {
  delete process.env[TEST_FETCH_TARGETS_ENV];
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  runBodies = [];
  statusCalls = 0;
  stored = [];
  scenario = { statuses: [completed('vid-1')] };
});

function completed(id: string) {
  return { id, status: 'completed', output: [`${baseUrl}/cdn/${id}/output_0.mp4`], error: null };
}

const pending = (status: string) => ({ id: 'vid-1', status, output: null, error: null });

function adapter() {
  return createFashnVideo({
    baseUrl,
    apiKey: async () => API_KEY,
    allowInsecureHttp: true,
    storeClip: async (location, bytes) => void stored.push({ location, bytes }),
  });
}

const output: S3Location = { bucket: 'results-bucket', key: 'user-1/videos/job-1/raw/output-1-clip-1.mp4' };

async function videoRequest(overrides: Partial<VideoStartRequest> = {}): Promise<VideoStartRequest> {
  const bytes = await sharp({ create: { width: 720, height: 1280, channels: 3, background: { r: 240, g: 240, b: 240 } } }).jpeg().toBuffer();
  return {
    image: { bytes, mimeType: 'image/jpeg' },
    prompt: 'Catwalk',
    durationSeconds: 5,
    aspectRatio: '9:16',
    size: { width: 720, height: 1280 },
    output,
    ...overrides,
  };
}

async function failureOf(status: VideoStatus): Promise<ProviderError> {
  expect(status.state).toBe('failed');
  return (status as { error: ProviderError }).error;
}

describe('FASHN image-to-video adapter', () => {
  it('plans 5 → one 5 s clip, 8 → one 10 s clip, 16 → two 10 s clips chained from the last frame', () => {
    expect(planFashnClips(5)).toEqual([{ seconds: 5, keyframe: 'source' }]);
    expect(planFashnClips(8)).toEqual([{ seconds: 10, keyframe: 'source' }]);
    expect(planFashnClips(16)).toEqual([
      { seconds: 10, keyframe: 'source' },
      { seconds: 10, keyframe: 'previous-clip-last-frame' },
    ]);
    expect(() => planFashnClips(7)).toThrow(ProviderError);
  });

  it('starts a clip with the documented body and names the operation by its prediction and output', async () => {
    const request = await videoRequest({ durationSeconds: 8 });
    const started = await adapter().start(request);

    expect(runBodies).toEqual([
      {
        model_name: 'image-to-video',
        inputs: {
          image: `data:image/jpeg;base64,${request.image.bytes.toString('base64')}`,
          prompt: 'walking towards the camera',
          duration: 10,
          resolution: '720p',
        },
      },
    ]);
    expect(started.model).toBe('fashn:image-to-video');
    expect(started.operationName).toContain('vid-1');

    await adapter().start({ ...(await videoRequest({ durationSeconds: 16, prompt: 'a slow wave of the hand' })), clipIndex: 1 });
    expect(runBodies[1]!.inputs).toMatchObject({ duration: 10, prompt: 'a slow wave of the hand' });
    expect((await adapter().start(await videoRequest({ durationSeconds: 5 }))).operationName).toBeTruthy();
    expect(runBodies[2]!.inputs).toMatchObject({ duration: 5 });
  });

  it('reports the pending statuses as running, then stores the MP4 where the workflow reads clips', async () => {
    scenario = { statuses: [pending('starting'), pending('in_queue'), pending('processing'), completed('vid-1')], cdn: { contentType: 'application/octet-stream', body: MP4 } };
    const video = adapter();
    const { operationName } = await video.start(await videoRequest());

    const answers = [await video.check(operationName), await video.check(operationName), await video.check(operationName), await video.check(operationName)];

    expect(answers.slice(0, 3)).toEqual([{ state: 'running' }, { state: 'running' }, { state: 'running' }]);
    expect(answers[3]).toEqual({ state: 'completed', output });
    expect(stored).toEqual([{ location: output, bytes: MP4 }]);
  });

  it('maps a ContentModerationError to the content policy error, without the provider text', async () => {
    scenario = { statuses: [{ id: 'vid-1', status: 'failed', output: null, error: { name: 'ContentModerationError', message: 'nudity detected in frame 3' } }] };
    const video = adapter();
    const error = await failureOf(await video.check((await video.start(await videoRequest())).operationName));
    expect(error.kind).toBe('content_policy');
    expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
    expect(stored).toEqual([]);
  });

  it.each([
    [{ status: 'failed', error: { name: 'ImageLoadError', message: 'x' } }, 'failed'],
    [{ status: 'failed', error: { name: 'PipelineError', message: 'x' } }, 'transient'],
    [{ status: 'canceled', error: null }, 'failed'],
    [{ status: 'time_out', error: null }, 'failed'],
  ])('maps the ended status %j to %s', async (answer, kind) => {
    scenario = { statuses: [{ id: 'vid-1', output: null, ...answer }] };
    const video = adapter();
    expect((await failureOf(await video.check((await video.start(await videoRequest())).operationName))).kind).toBe(kind);
  });

  it('throws a busy status check as transient (the workflow retries it) and a download that is no MP4 as failed', async () => {
    const video = adapter();
    const { operationName } = await video.start(await videoRequest());
    scenario = { statuses: [], statusHttp: { status: 429, body: { error: 'RateLimitExceeded', message: 'slow down' } } };
    const busy = await video.check(operationName).then(() => null, (error: unknown) => error);
    expect(busy).toBeInstanceOf(ProviderError);
    expect((busy as ProviderError).kind).toBe('transient');

    scenario = { statuses: [completed('vid-1')], cdn: { contentType: 'video/mp4', body: Buffer.from('<html>expired</html>') } };
    const refused = await video.check(operationName).then(() => null, (error: unknown) => error);
    expect((refused as ProviderError).kind).toBe('failed');
    expect(stored).toEqual([]);
  });
});

describe('the video workflow with FASHN clips', () => {
  /** Runs one output through the video ASL: StartClip and CheckClip are the adapter's, the job steps record what they get. */
  async function runWorkflow(): Promise<{ results: Array<{ failed?: boolean; error?: { Error?: string } }>; checks: number }> {
    const video = adapter();
    let checks = 0;
    const completeInputs: Array<{ results: Array<{ failed?: boolean; error?: { Error?: string } }> }> = [];
    const machine = new StateMachine(loadDefinition('video') as never, { validationOptions: { checkArn: true } });
    const execution = machine.run(
      { userId: 'user-1', jobId: 'job-1', outputs: [0], maxConcurrency: 1 },
      {
        overrides: {
          taskResourceLocalHandlers: {
            StartClip: async (state: Record<string, unknown>) => {
              const started = await video.start(await videoRequest());
              return { ...state, operationName: started.operationName, clipIndex: 0, clipCount: 1, attempts: 0, status: 'running' };
            },
            CheckClip: async (state: Record<string, unknown>) => {
              checks += 1;
              const checked = await video.check(state.operationName as string);
              if (checked.state === 'running') return { ...state, attempts: (state.attempts as number) + 1, status: 'running' };
              if (checked.state === 'failed') throw Object.assign(new Error(checked.error.message), { name: VIDEO_ERROR.providerFailed });
              return { ...state, status: 'completed' };
            },
            FinalizeOutput: async (state: Record<string, unknown>) => ({ ...state, model: 'fashn:image-to-video' }),
            CompleteJob: async (input: { results: Array<{ failed?: boolean; error?: { Error?: string } }> }) => {
              completeInputs.push(input);
              return { status: 'failed' };
            },
            MarkFailed: async () => ({ status: 'failed' }),
          } as never,
          waitTimeOverrides: { WaitForClip: 0 },
        },
      },
    );
    await execution.result.catch(() => undefined);
    return { results: completeInputs[0]?.results ?? [], checks };
  }

  it('ends an output whose prediction failed as a failed output, which CompleteJob refunds', async () => {
    scenario = { statuses: [pending('processing'), { id: 'vid-1', status: 'failed', output: null, error: { name: 'ImageLoadError', message: 'x' } }] };
    const { results } = await runWorkflow();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ failed: true, error: { Error: VIDEO_ERROR.providerFailed } });
  });

  it('ends an output whose prediction never finishes as timed out after the workflow\'s checks, which CompleteJob refunds', async () => {
    scenario = { statuses: [pending('processing')] };
    const { results, checks } = await runWorkflow();
    expect(results[0]).toMatchObject({ failed: true, error: { Error: VIDEO_ERROR.timedOut } });
    expect(checks).toBeGreaterThanOrEqual(120);
    expect(runBodies).toHaveLength(1);
  }, 120_000);
});
