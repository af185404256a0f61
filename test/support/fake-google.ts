// A loopback stand-in for the parts of the Gemini API the Google adapters call, speaking the documented wire shapes
// (https://ai.google.dev/api/generate-content, https://ai.google.dev/gemini-api/docs/video), so contract tests, the
// video workflow on the twin and `npm run providers:check` (fake mode) run with no internet:
//   POST /v1beta/models/{model}:generateContent      → an image part (at Gemini's pixel size for imageSize and
//                                                      aspectRatio) or a text part, or a refusal / error
//   POST /v1beta/models/{model}:predictLongRunning   → { name: "models/{model}/operations/{id}" }
//   GET  /v1beta/models/{model}/operations/{id}      → not done for `checksUntilDone` checks, then done with a
//                                                      generatedSamples[0].video.uri, or an error / a filtered answer
//   GET  /v1beta/files/{id}:download?alt=media       → the MP4: a Veo-shaped clip that starts and ends on the
//                                                      request's first frame (a circular drift over the picture)
// Every call needs the key in x-goog-api-key (else 403, as the API answers). What the fake does is chosen by words in
// the request's text, as a provider's own behaviour is: "refuse me" (policy refusal), "unsafe output"
// (finishReason IMAGE_SAFETY), "busy" (429 on every call), "busy once" (429 once, then fine), "operation error"
// (the operation ends with an error), "never finishes" (never done), "server error" (500 on the start), "audio filtered"
// (the clip filtered for its audio), "thinking image" (a thought image part before the final one).
// What the documents say, served as the API serves it:
//   - retired model ids answer 404 NOT_FOUND (release notes, 2026-05-28: "gemini-3.1-flash-image-preview and
//     gemini-3-pro-image-preview models are deprecated and will be shut down on June 25, 2026"; the deprecations page
//     lists gemini-2.5-flash-image as shut down October 2, 2026);
//   - imageConfig.imageSize is refused (400) by an image model that does not take it (only the Gemini 3 image models do);
//   - a clip with lastFrame (interpolation) and durationSeconds other than 8 is refused, 400 INVALID_ARGUMENT: the
//     Veo guide of November 2025, durationSeconds "Must be "8" when using extension or interpolation" (turn off with
//     `interpolationNeeds8 = false`, as later copies of the guide read);
//   - with `refuseAllowAdult`, personGeneration "allow_adult" is refused 400 INVALID_ARGUMENT (a 2026 forum report);
//   - a text model asked with thinking left on spends maxOutputTokens on thoughts: finishReason MAX_TOKENS, no text;
//   - with `redirectDownloads`, a video download answers 302 to another host (http://localhost:<port>), which serves
//     the file without a key (and records whether one was sent).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

export const FAKE_GOOGLE_API_KEY = 'AIza-fake-key-for-tests';

/** Gemini image's pixel sizes (long side 1376 / 2752 / 5504 at 9:16), by imageSize. */
const LONG_SIDE: Record<string, number> = { '1K': 1376, '2K': 2752, '4K': 5504 };

export interface RecordedGoogleRequest {
  method: string;
  path: string;
  body: any;
  apiKey?: string;
  host?: string;
}

export interface FakeVideoOperation {
  id: string;
  model: string;
  prompt: string;
  aspectRatio: string;
  durationSeconds: number;
  firstFrame: Buffer;
  lastFrame?: Buffer;
  checks: number;
}

export interface FakeGoogle {
  baseUrl: string;
  requests: RecordedGoogleRequest[];
  operations: FakeVideoOperation[];
  /** Checks an operation answers "not done" before it is done (default 1). */
  checksUntilDone: number;
  /** Refuse a lastFrame clip that is not 8 s (default true: the November 2025 guide). */
  interpolationNeeds8: boolean;
  /** Refuse personGeneration "allow_adult" (default false). */
  refuseAllowAdult: boolean;
  /** Answer a video download with a redirect to another host (default false). */
  redirectDownloads: boolean;
  close(): Promise<void>;
}

const run = promisify(execFile);

/** A Veo-shaped clip: the first frame drifts round a circle at constant speed, ending where it began. */
async function veoShapedClip(frame: Buffer, seconds: number, ratio: string): Promise<Buffer> {
  const [width, height] = ratio === '16:9' ? [640, 360] : [360, 640];
  const dir = await mkdtemp(join(tmpdir(), 'fake-veo-'));
  try {
    const still = join(dir, 'frame.png');
    const radius = 64;
    await writeFile(still, await sharp(frame).resize(width + 2 * radius, height + 2 * radius, { fit: 'cover' }).png().toBuffer());
    const clip = join(dir, 'clip.mp4');
    // A circle at constant speed (about 2 px a frame): every step alike, and the last frame one step from the first.
    const driftX = `${radius}+${radius}*cos(2*PI*t/${seconds})`;
    const driftY = `${radius}+${radius}*sin(2*PI*t/${seconds})`;
    await run('ffmpeg', [
      '-y', '-loop', '1', '-framerate', '24', '-t', String(seconds), '-i', still,
      '-vf', `crop=${width}:${height}:${driftX}:${driftY},format=yuv420p`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-r', '24', '-movflags', '+faststart', clip,
    ]);
    return await readFile(clip);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function pixelSize(imageSize: string, aspectRatio: string): { width: number; height: number } {
  const [w, h] = aspectRatio.split(':').map(Number) as [number, number];
  const longSide = LONG_SIDE[imageSize] ?? LONG_SIDE['1K']!;
  return w >= h ? { width: longSide, height: Math.round((longSide * h) / w) } : { width: Math.round((longSide * w) / h), height: longSide };
}

/** Model ids Google has shut down: 404 NOT_FOUND, as the API answers a model it no longer serves. */
export const RETIRED_MODEL_IDS = ['gemini-3.1-flash-image-preview', 'gemini-3-pro-image-preview', 'gemini-2.5-flash-image', 'gemini-2.0-flash'];
/** The image models that take imageConfig.imageSize. */
const IMAGE_SIZE_MODELS = ['gemini-3.1-flash-image', 'gemini-3-pro-image'];

const textOf = (body: any): string =>
  JSON.stringify(body?.contents ?? body?.instances ?? '').replace(/"data":"[^"]*"|"bytesBase64Encoded":"[^"]*"/g, '');

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const requests: RecordedGoogleRequest[] = [];
  const operations: FakeVideoOperation[] = [];
  const busyOnce = new Set<string>();
  const clips = new Map<string, Buffer>();
  let baseUrl = '';

  const json = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const apiError = (response: ServerResponse, code: number, status: string, message: string): void =>
    json(response, code, { error: { code, message, status } });

  /** "busy": always 429; "busy once": 429 the first time this text is seen. */
  function throttled(text: string): boolean {
    if (text.includes('busy once')) {
      if (busyOnce.has(text)) return false;
      busyOnce.add(text);
      return true;
    }
    return text.includes('busy');
  }

  async function generateContent(model: string, body: any, response: ServerResponse): Promise<void> {
    const text = textOf(body);
    if (throttled(text)) return apiError(response, 429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
    if (text.includes('refuse me')) return json(response, 200, { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, modelVersion: model });
    const imageConfig = body?.generationConfig?.imageConfig;
    if (!body?.generationConfig?.responseModalities?.includes('IMAGE')) {
      // A text model: the enrichment of a description. With thinking on, a small maxOutputTokens goes to thoughts.
      if (body?.generationConfig?.thinkingConfig?.thinkingBudget !== 0) {
        return json(response, 200, { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MAX_TOKENS' }], modelVersion: model });
      }
      if (text.includes('long winded')) {
        return json(response, 200, { candidates: [{ content: { role: 'model', parts: [{ text: 'a confident adult model with warm brown skin and' }] }, finishReason: 'MAX_TOKENS' }], modelVersion: model });
      }
      const enriched = 'a confident adult model with warm brown skin and short curly hair, relaxed three-quarter pose, soft smile, styled minimally, soft studio key light';
      return json(response, 200, { candidates: [{ content: { role: 'model', parts: [{ text: enriched }] }, finishReason: 'STOP' }], modelVersion: model });
    }
    if (imageConfig?.imageSize !== undefined && !IMAGE_SIZE_MODELS.includes(model)) {
      return apiError(response, 400, 'INVALID_ARGUMENT', `imageConfig.imageSize is not supported by model ${model}.`);
    }
    if (text.includes('unsafe output')) return json(response, 200, { candidates: [{ finishReason: 'IMAGE_SAFETY' }], modelVersion: model });
    const { width, height } = pixelSize(imageConfig?.imageSize ?? '1K', imageConfig?.aspectRatio ?? '1:1');
    const firstImage = body.contents?.[0]?.parts?.find((part: any) => part.inlineData)?.inlineData?.data;
    const picture = firstImage
      ? await sharp(Buffer.from(firstImage, 'base64')).resize(width, height, { fit: 'contain', background: '#f4f4f4' }).png().toBuffer()
      : await sharp({ create: { width, height, channels: 3, background: '#c0c0c0' } }).png().toBuffer();
    // Gemini 3 image models may show interim thought images (Part.thought: true) before the final image.
    const thought = text.includes('thinking image')
      ? [{ thought: true, inlineData: { mimeType: 'image/png', data: (await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff0000' } }).png().toBuffer()).toString('base64') } }]
      : [];
    json(response, 200, {
      candidates: [{ content: { role: 'model', parts: [...thought, { inlineData: { mimeType: 'image/png', data: picture.toString('base64') } }] }, finishReason: 'STOP' }],
      modelVersion: model,
    });
  }

  function predictLongRunning(model: string, body: any, response: ServerResponse): void {
    const instance = body?.instances?.[0] ?? {};
    const text = textOf(body);
    if (throttled(text)) return apiError(response, 429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
    const durationSeconds = body?.parameters?.durationSeconds;
    if (![4, 6, 8].includes(durationSeconds) || !['16:9', '9:16'].includes(body?.parameters?.aspectRatio) || !instance.image?.bytesBase64Encoded) {
      return apiError(response, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    }
    if (text.includes('server error')) return apiError(response, 500, 'INTERNAL', 'An internal error has occurred.');
    if (fake.refuseAllowAdult && body?.parameters?.personGeneration === 'allow_adult') {
      return apiError(response, 400, 'INVALID_ARGUMENT', 'personGeneration allow_adult is not supported for image-to-video with this model.');
    }
    if (fake.interpolationNeeds8 && instance.lastFrame?.bytesBase64Encoded && durationSeconds !== 8) {
      return apiError(response, 400, 'INVALID_ARGUMENT', 'durationSeconds must be "8" when using extension or interpolation.');
    }
    const id = randomUUID().replace(/-/g, '').slice(0, 12);
    operations.push({
      id,
      model,
      prompt: String(instance.prompt ?? ''),
      aspectRatio: body.parameters.aspectRatio,
      durationSeconds,
      firstFrame: Buffer.from(instance.image.bytesBase64Encoded, 'base64'),
      lastFrame: instance.lastFrame?.bytesBase64Encoded ? Buffer.from(instance.lastFrame.bytesBase64Encoded, 'base64') : undefined,
      checks: 0,
    });
    json(response, 200, { name: `models/${model}/operations/${id}` });
  }

  async function getOperation(model: string, id: string, response: ServerResponse): Promise<void> {
    const operation = operations.find((candidate) => candidate.id === id && candidate.model === model);
    if (!operation) return apiError(response, 404, 'NOT_FOUND', 'Operation not found.');
    operation.checks++;
    const name = `models/${model}/operations/${id}`;
    if (operation.prompt.includes('never finishes') || operation.checks <= fake.checksUntilDone) return json(response, 200, { name });
    if (operation.prompt.includes('operation error')) return json(response, 200, { name, done: true, error: { code: 13, message: 'Video generation failed due to an internal error.' } });
    const type = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';
    if (operation.prompt.includes('audio filtered')) {
      const reason = 'We encountered an issue with the audio for your prompt. Please try a different prompt. You will not be charged. Support codes: 64151117';
      return json(response, 200, { name, done: true, response: { '@type': type, generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: [reason] } } });
    }
    if (operation.prompt.includes('refuse me')) {
      return json(response, 200, { name, done: true, response: { '@type': type, generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['The input image violates our policies.'] } } });
    }
    if (!clips.has(id)) clips.set(id, await veoShapedClip(operation.firstFrame, operation.durationSeconds, operation.aspectRatio));
    json(response, 200, {
      name,
      done: true,
      response: { '@type': type, generateVideoResponse: { generatedSamples: [{ video: { uri: `${baseUrl}/v1beta/files/${id}:download?alt=media` } }] } },
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', baseUrl);
    const body = raw ? JSON.parse(raw) : undefined;
    const apiKey = request.headers['x-goog-api-key'] as string | undefined;
    requests.push({ method: request.method ?? 'GET', path: url.pathname, body, apiKey, host: request.headers.host });
    let match: RegExpExecArray | null;
    // The storage host a download redirects to: no key needed, and none should come.
    if (request.method === 'GET' && (match = /^\/storage\/([^/]+)$/.exec(url.pathname))) {
      const clip = clips.get(match[1]!);
      if (!clip) return apiError(response, 404, 'NOT_FOUND', 'File not found.');
      return void response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    }
    if (apiKey !== FAKE_GOOGLE_API_KEY) return apiError(response, 403, 'PERMISSION_DENIED', 'API key not valid. Please pass a valid API key.');
    const modelId = /^\/v1beta\/models\/([^/:]+)/.exec(url.pathname)?.[1];
    if (modelId && RETIRED_MODEL_IDS.includes(modelId)) {
      return apiError(response, 404, 'NOT_FOUND', `models/${modelId} is not found for API version v1beta, or is not supported for generateContent.`);
    }
    if (request.method === 'POST' && (match = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(url.pathname))) return generateContent(match[1]!, body, response);
    if (request.method === 'POST' && (match = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(url.pathname))) return predictLongRunning(match[1]!, body, response);
    if (request.method === 'GET' && (match = /^\/v1beta\/models\/([^/]+)\/operations\/([^/]+)$/.exec(url.pathname))) return getOperation(match[1]!, match[2]!, response);
    if (request.method === 'GET' && (match = /^\/v1beta\/files\/([^/:]+):download$/.exec(url.pathname))) {
      const clip = clips.get(match[1]!);
      if (!clip) return apiError(response, 404, 'NOT_FOUND', 'File not found.');
      if (fake.redirectDownloads) return void response.writeHead(302, { location: `${baseUrl.replace('127.0.0.1', 'localhost')}/storage/${match[1]!}` }).end();
      return void response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    }
    apiError(response, 404, 'NOT_FOUND', `unexpected ${request.method} ${url.pathname}`);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => apiError(response, 500, 'INTERNAL', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeGoogle = {
    baseUrl,
    requests,
    operations,
    checksUntilDone: 1,
    interpolationNeeds8: true,
    refuseAllowAdult: false,
    redirectDownloads: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
