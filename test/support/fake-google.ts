// A loopback stand-in for the parts of the Gemini API the Google adapters call, written from Google's documents (each
// quoted where it is followed, read 2026-11-27 unless said otherwise), never from what our adapters send:
//   POST /v1beta/models/{model}:generateContent  → an image part (at Gemini's pixel size for imageSize and aspectRatio)
//                                                  or a text part, or a refusal / an error ("Image generation with
//                                                  Gemini", https://ai.google.dev/gemini-api/docs/image-generation;
//                                                  https://ai.google.dev/api/generate-content)
//   GET  /v1beta/models/{model}                  → the Model resource (models.get, https://ai.google.dev/api/models)
//   POST /v1beta/interactions                    → { id, status: "in_progress" } for a background video interaction
//   GET  /v1beta/interactions/{id}               → in progress for `checksUntilDone` checks, then "completed" with a
//                                                  model_output step whose content is the video (uri or inline data)
//                                                  ("Generate and edit videos with Gemini Omni Flash 1.1", the Gemini
//                                                  cookbook's Get_started_Omni notebook; https://ai.google.dev/
//                                                  gemini-api/docs/omni; the Interaction type of @google/genai 2.32)
//   GET  /v1beta/files/{id}:download?alt=media   → the MP4: a clip that starts on the first keyframe, drifts round a
//                                                  circle and ends on it again (both keyframes are the product photo)
// The models it serves are exactly those the dated table (lambdas/providers/google/model-table.ts) lists as served
// today; an id the table says is shut down answers 404 NOT_FOUND "... is no longer available" (the answer of a shut-down
// Veo preview id after 2026-10-22: "an underlying 404 containing is no longer available", docs.apiyi.com's notice of
// 2026-10-25), and an id it does not know answers 404 "... is not found". Gemini Omni answers only the Interactions API
// ("This model only supports Interactions API.", 400, as TanStack/ai issue #871 shows the live API, 2026-07-01), and
// the Interactions API takes only a model that makes video for a video response_format.
// Every call needs the key in x-goog-api-key (else 403, as the API answers). FAKE_GOOGLE_FREE_TIER_KEY is a key without
// paid access: every generation answers 429 RESOURCE_EXHAUSTED with a free-tier quota of 0 (the answer
// googleapis/js-genai issue #1322 shows, 2026-02-12: "Quota exceeded for metric: generativelanguage.googleapis.com/
// generate_content_free_tier_requests, limit: 0, model: ...").
// What the fake does otherwise is chosen by words in the request's text, as a provider's own behaviour is: "refuse me"
// (policy refusal), "unsafe output" (finishReason IMAGE_SAFETY), "recite please" (finishReason RECITATION), "personal
// data" (finishReason SPII), "refuse enrichment" (the text model's promptFeedback.blockReason), "busy" (429 on every
// call), "busy once" (429 once, then fine), "operation error" (the interaction ends failed), "never finishes" (never
// done), "server error" (500 on the start), "thinking image" (a thought image part before the final one).
// Also as the documents say:
//   - a text model asked with thinking left on spends maxOutputTokens on thoughts: finishReason MAX_TOKENS, no text;
//   - a video interaction is refused (400 INVALID_ARGUMENT) unless its response_format is { type: "video" } with an
//     aspect_ratio of "16:9" | "9:16", a duration of "3s" to "10s", a resolution of "360p" | "720p" | "1080p" | "4k"
//     (VideoResponseFormat; "Duration: 3s - 10s", "Resolution: 360p, 720p, 1080p, 4k", Google Cloud's Omni 1.1
//     notebook) and its input holds at least one image (image_to_video);
//   - `delayMs` holds every generateContent answer that long (a slow server: the client's timeout fires first);
//   - with `redirectDownloads`, a video download answers 302 to another host (http://localhost:<port>), which serves
//     the file without a key (and records whether one was sent); with `stallDownloads` a download never answers.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { GOOGLE_MODEL_TABLE } from '../../lambdas/providers/google/model-table.js';
import { modelState } from '../../lambdas/providers/model-lifecycle.js';

export const FAKE_GOOGLE_API_KEY = 'AIza-fake-key-for-tests';
export const FAKE_GOOGLE_FREE_TIER_KEY = 'AIza-fake-free-tier-key';

/** Gemini image's pixel sizes (long side 1376 / 2752 / 5504 at 9:16), by imageSize. */
const LONG_SIDE: Record<string, number> = { '1K': 1376, '2K': 2752, '4K': 5504 };
const OMNI_RESOLUTIONS = ['360p', '720p', '1080p', '4k'];

export interface RecordedGoogleRequest {
  method: string;
  path: string;
  body: any;
  apiKey?: string;
  host?: string;
}

export interface FakeInteraction {
  id: string;
  model: string;
  prompt: string;
  aspectRatio: string;
  durationSeconds: number;
  resolution: string;
  delivery: string;
  background: boolean;
  task?: string;
  firstFrame: Buffer;
  lastFrame?: Buffer;
  checks: number;
}

export interface FakeGoogle {
  baseUrl: string;
  requests: RecordedGoogleRequest[];
  interactions: FakeInteraction[];
  /** Checks an interaction answers "in_progress" before it is done (default 1). */
  checksUntilDone: number;
  /** Milliseconds every generateContent answer is held (default 0). */
  delayMs: number;
  /** Answer a video download with a redirect to another host (default false). */
  redirectDownloads: boolean;
  /** A video download never answers (default false). */
  stallDownloads: boolean;
  /** The date the fake serves models at (default now): the table's shutdowns take effect on it. */
  today: () => Date;
  /** Resolves once the interaction's clip is rendered. */
  rendered(interactionId: string): Promise<void>;
  close(): Promise<void>;
}

const run = promisify(execFile);

/** An Omni-shaped clip: it starts on the first keyframe, drifts round a circle at constant speed and ends where it began. */
async function loopClip(frame: Buffer, seconds: number, ratio: string): Promise<Buffer> {
  const [width, height] = ratio === '16:9' ? [640, 360] : [360, 640];
  const dir = await mkdtemp(join(tmpdir(), 'fake-omni-'));
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

/** Ids the table lists as shut down at `now`: answered 404 "is no longer available". */
export function shutDownModelIds(now = new Date()): string[] {
  return Object.keys(GOOGLE_MODEL_TABLE).filter((id) => modelState(GOOGLE_MODEL_TABLE[id], now).state === 'shut-down');
}

const textOf = (body: any): string =>
  JSON.stringify(body?.contents ?? body?.input ?? '').replace(/"data":"[^"]*"|"bytesBase64Encoded":"[^"]*"/g, '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const requests: RecordedGoogleRequest[] = [];
  const interactions: FakeInteraction[] = [];
  const busyOnce = new Set<string>();
  /** Each interaction's clip, rendered from the moment it is created (a check may find it ready). */
  const clips = new Map<string, Promise<Buffer>>();
  let baseUrl = '';

  const json = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const apiError = (response: ServerResponse, code: number, status: string, message: string, details?: unknown[]): void =>
    json(response, code, { error: { code, message, status, ...(details ? { details } : {}) } });

  /** "busy": always 429; "busy once": 429 the first time this text is seen. */
  function throttled(text: string): boolean {
    if (text.includes('busy once')) {
      if (busyOnce.has(text)) return false;
      busyOnce.add(text);
      return true;
    }
    return text.includes('busy');
  }

  const quota = (response: ServerResponse) => apiError(response, 429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
  /** A key without paid access, on a model with no free tier. */
  function freeTier(response: ServerResponse, model: string): void {
    apiError(
      response,
      429,
      'RESOURCE_EXHAUSTED',
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n' +
        `* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: ${model}`,
      [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }],
        },
      ],
    );
  }

  /** The table's verdict on a model id today: served, shut down (404 "is no longer available") or unknown (404). */
  function unserved(model: string, response: ServerResponse): boolean {
    const state = modelState(GOOGLE_MODEL_TABLE[model], fake.today());
    if (state.state === 'shut-down') {
      apiError(response, 404, 'NOT_FOUND', `models/${model} is no longer available. Please use ${state.replacement} instead.`);
      return true;
    }
    if (state.state === 'unknown') {
      apiError(response, 404, 'NOT_FOUND', `models/${model} is not found for API version v1beta, or is not supported for generateContent.`);
      return true;
    }
    return false;
  }

  async function generateContent(model: string, body: any, apiKey: string, response: ServerResponse): Promise<void> {
    const text = textOf(body);
    if (fake.delayMs > 0) await sleep(fake.delayMs);
    if (response.destroyed || response.writableEnded) return;
    if (GOOGLE_MODEL_TABLE[model]?.kind === 'video') return apiError(response, 400, 'INVALID_ARGUMENT', 'This model only supports Interactions API.');
    if (apiKey === FAKE_GOOGLE_FREE_TIER_KEY) return freeTier(response, model);
    if (throttled(text)) return quota(response);
    if (text.includes('refuse me')) return json(response, 200, { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, modelVersion: model });
    const imageConfig = body?.generationConfig?.imageConfig;
    if (!body?.generationConfig?.responseModalities?.includes('IMAGE')) {
      // A text model: the enrichment of a description. With thinking on, a small maxOutputTokens goes to thoughts.
      if (text.includes('refuse enrichment')) return json(response, 200, { promptFeedback: { blockReason: 'OTHER' }, modelVersion: model });
      if (body?.generationConfig?.thinkingConfig?.thinkingBudget !== 0) {
        return json(response, 200, { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MAX_TOKENS' }], modelVersion: model });
      }
      if (text.includes('long winded')) {
        return json(response, 200, { candidates: [{ content: { role: 'model', parts: [{ text: 'a confident adult model with warm brown skin and' }] }, finishReason: 'MAX_TOKENS' }], modelVersion: model });
      }
      const enriched = 'a confident adult model with warm brown skin and short curly hair, relaxed three-quarter pose, soft smile, styled minimally, soft studio key light';
      return json(response, 200, { candidates: [{ content: { role: 'model', parts: [{ text: enriched }] }, finishReason: 'STOP' }], modelVersion: model });
    }
    if (text.includes('unsafe output')) return json(response, 200, { candidates: [{ finishReason: 'IMAGE_SAFETY' }], modelVersion: model });
    if (text.includes('recite please')) return json(response, 200, { candidates: [{ finishReason: 'IMAGE_RECITATION' }], modelVersion: model });
    if (text.includes('personal data')) return json(response, 200, { candidates: [{ finishReason: 'SPII' }], modelVersion: model });
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

  /** models.get: the Model resource of a served id. */
  function getModel(model: string, response: ServerResponse): void {
    if (unserved(model, response)) return;
    const row = GOOGLE_MODEL_TABLE[model]!;
    json(response, 200, { name: `models/${model}`, version: '001', displayName: model, description: row.use, supportedGenerationMethods: ['generateContent', 'countTokens'] });
  }

  function createInteraction(body: any, apiKey: string, response: ServerResponse): void {
    const model = String(body?.model ?? '');
    if (unserved(model, response)) return;
    if (GOOGLE_MODEL_TABLE[model]?.kind !== 'video') return apiError(response, 400, 'INVALID_ARGUMENT', `Model ${model} does not produce video output.`);
    if (apiKey === FAKE_GOOGLE_FREE_TIER_KEY) return freeTier(response, model);
    const text = textOf(body);
    if (throttled(text)) return quota(response);
    if (text.includes('server error')) return apiError(response, 500, 'INTERNAL', 'An internal error has occurred.');
    const format = body?.response_format ?? {};
    const seconds = /^(\d+)s$/.exec(String(format.duration ?? ''))?.[1];
    const images = (Array.isArray(body?.input) ? body.input : []).filter((part: any) => part?.type === 'image' && typeof part.data === 'string' && part.mime_type);
    const durationSeconds = Number(seconds);
    if (
      format.type !== 'video' ||
      !['16:9', '9:16'].includes(format.aspect_ratio) ||
      !(durationSeconds >= 3 && durationSeconds <= 10) ||
      !OMNI_RESOLUTIONS.includes(format.resolution ?? '720p') ||
      !['inline', 'uri', undefined].includes(format.delivery) ||
      images.length === 0
    ) {
      return apiError(response, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    }
    const id = `v1_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const rendered = loopClip(Buffer.from(images[0].data, 'base64'), durationSeconds, format.aspect_ratio);
    rendered.catch(() => undefined);
    clips.set(id, rendered);
    interactions.push({
      id,
      model,
      prompt: text,
      aspectRatio: format.aspect_ratio,
      durationSeconds,
      resolution: format.resolution ?? '720p',
      delivery: format.delivery ?? 'inline',
      background: body.background === true,
      task: body?.generation_config?.video_config?.task,
      firstFrame: Buffer.from(images[0].data, 'base64'),
      lastFrame: images[1] ? Buffer.from(images[1].data, 'base64') : undefined,
      checks: 0,
    });
    json(response, 200, { id, object: 'interaction', model, status: 'in_progress', created: new Date().toISOString() });
  }

  async function getInteraction(id: string, response: ServerResponse): Promise<void> {
    const interaction = interactions.find((candidate) => candidate.id === id);
    if (!interaction) return apiError(response, 400, 'INVALID_ARGUMENT', 'Invalid interaction name.');
    interaction.checks++;
    const head = { id, object: 'interaction', model: interaction.model, created: new Date().toISOString() };
    const userInput = { type: 'user_input', content: [{ type: 'text', text: '(input)' }] };
    if (interaction.prompt.includes('never finishes') || interaction.checks <= fake.checksUntilDone) return json(response, 200, { ...head, status: 'in_progress', steps: [userInput] });
    if (interaction.prompt.includes('operation error')) {
      return json(response, 200, { ...head, status: 'failed', steps: [userInput], errors: [{ code: 'internal', message: 'Video generation failed due to an internal error.' }] });
    }
    if (interaction.prompt.includes('refuse me')) {
      return json(response, 200, { ...head, status: 'failed', steps: [userInput], errors: [{ code: 'safety', message: 'The input image was blocked by our safety policies.' }] });
    }
    const clip = await clips.get(id)!;
    const video = interaction.delivery === 'uri' ? { type: 'video', uri: `${baseUrl}/v1beta/files/${id}:download?alt=media`, mime_type: 'video/mp4' } : { type: 'video', data: clip.toString('base64'), mime_type: 'video/mp4' };
    json(response, 200, {
      ...head,
      status: 'completed',
      steps: [userInput, { type: 'thought', signature: 'sig' }, { type: 'model_output', content: [video] }],
      usage: { output_tokens_by_modality: [{ modality: 'video', tokens: 5792 * interaction.durationSeconds }] },
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
      const clip = await clips.get(match[1]!);
      if (!clip) return apiError(response, 404, 'NOT_FOUND', 'File not found.');
      return void response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    }
    if (apiKey !== FAKE_GOOGLE_API_KEY && apiKey !== FAKE_GOOGLE_FREE_TIER_KEY) return apiError(response, 403, 'PERMISSION_DENIED', 'API key not valid. Please pass a valid API key.');
    if (request.method === 'POST' && (match = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(url.pathname))) {
      if (unserved(match[1]!, response)) return;
      return generateContent(match[1]!, body, apiKey, response);
    }
    if (request.method === 'GET' && (match = /^\/v1beta\/models\/([^/:]+)$/.exec(url.pathname))) return getModel(match[1]!, response);
    if (request.method === 'POST' && url.pathname === '/v1beta/interactions') return createInteraction(body, apiKey, response);
    if (request.method === 'GET' && (match = /^\/v1beta\/interactions\/([^/]+)$/.exec(url.pathname))) return getInteraction(decodeURIComponent(match[1]!), response);
    if (request.method === 'GET' && (match = /^\/v1beta\/files\/([^/:]+):download$/.exec(url.pathname))) {
      const clip = await clips.get(match[1]!);
      if (!clip) return apiError(response, 404, 'NOT_FOUND', 'File not found.');
      if (fake.stallDownloads) return;
      if (fake.redirectDownloads) return void response.writeHead(302, { location: `${baseUrl.replace('127.0.0.1', 'localhost')}/storage/${match[1]!}` }).end();
      return void response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    }
    apiError(response, 404, 'NOT_FOUND', `unexpected ${request.method} ${url.pathname}`);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) apiError(response, 500, 'INTERNAL', String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeGoogle = {
    baseUrl,
    requests,
    interactions,
    checksUntilDone: 1,
    delayMs: 0,
    redirectDownloads: false,
    stallDownloads: false,
    today: () => new Date(),
    rendered: async (interactionId) => void (await clips.get(interactionId)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
