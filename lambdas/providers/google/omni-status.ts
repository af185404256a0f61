// Whether a Gemini Omni clip is ready, and storing it where the video workflow expects it. This half of the Omni adapter
// runs in the workflow's CheckClip function, which is held to the lean bundle budget (500 KB, lib/bundle-budget.ts):
// @google/genai 2.32 alone bundles to about 760 KB minified, so the check makes the two REST calls itself with fetch,
// the very calls the SDK's `interactions.get` (interactionsGet: GET /{api_version}/interactions/{interactionsId}) and
// `files.download` make:
//   GET {base}/v1beta/interactions/{id}   header x-goog-api-key
//   → { id, status: "queued" | "in_progress" | "completed" | "failed" | "cancelled" | "incomplete" | ...,
//       steps: [{ type: "user_input", ... }, { type: "thought", ... },
//               { type: "model_output", content: [{ type: "video", uri | data, mime_type: "video/mp4" }], error? }],
//       errors?: [{ code, message }] }
//     (the Interaction type of the installed SDK; the cookbook's printed steps of an Omni answer, read 2026-11-27)
//   GET {video uri}   header x-goog-api-key → the MP4 ("https://generativelanguage.googleapis.com/v1beta/files/<id>:
//       download?alt=media", the cookbook's URI delivery), or a redirect to a storage host. The key goes to the API's
//       own origin only: redirects are followed by hand, and a hop to any other host is fetched without it (https only).
// Both calls share one deadline, CHECK_FETCH_BUDGET_MS, well inside CheckClip's 60 s with the store after them. A clip
// Google has made and billed is never given up while Google holds it: when its download fails or runs out of time the
// check answers "running" and the workflow checks again after its wait (until the clips' deadline), instead of
// failing the output and refunding a clip we paid for.
import { ProviderError, type S3Location, type VideoStatus } from '../ports.js';
import { busy, contentPolicy, failed, isRetryableStatus, toProviderError } from './errors.js';
import type { ApiKeyReader } from './api-key.js';
import { parseOmniOperationName } from './omni-operation.js';

export const GEMINI_API_BASE_URL = 'https://generativelanguage.googleapis.com';
const API_VERSION = 'v1beta';
/** A 720p clip of 10 s is a few MB; anything far larger is not what was ordered. */
const MAX_CLIP_BYTES = 200 * 1024 * 1024;
/** Redirects a download may take. */
const MAX_REDIRECTS = 5;
/** Both fetches of one check together; CheckClip has 60 s (lambdas/workflows.ts), the store and the start need the rest. */
export const CHECK_FETCH_BUDGET_MS = 35_000;

export interface OmniStatusOptions {
  apiKey: ApiKeyReader;
  /** Default: the Gemini API. */
  baseUrl?: string;
  /** Stores a finished clip at the location its operation name carries. */
  store: (location: S3Location, bytes: Buffer) => Promise<void>;
  /** Milliseconds both fetches of one check may take together (default CHECK_FETCH_BUDGET_MS). */
  fetchBudgetMs?: number;
}

interface Content {
  type?: string;
  uri?: string;
  data?: string;
  text?: string;
}

interface InteractionBody {
  id?: string;
  status?: string;
  steps?: Array<{ type?: string; content?: Content[]; error?: { code?: number; message?: string } }>;
  errors?: Array<{ code?: string; message?: string }>;
}

const RUNNING = new Set(['queued', 'in_progress']);
/** Words of a refusal in an interaction's errors or its model's text: a content refusal, told as such. */
const REFUSAL = /\b(safety|policy|policies|prohibited|blocked|violat)/i;

/** A transient failure of a download: the clip stays with Google, so the check says "running" and comes back. */
class DownloadPending extends Error {}

export function createOmniStatus(options: OmniStatusOptions): { check(operationName: string): Promise<VideoStatus> } {
  const base = new URL(`${(options.baseUrl ?? GEMINI_API_BASE_URL).replace(/\/+$/, '')}/`);
  const budgetMs = options.fetchBudgetMs ?? CHECK_FETCH_BUDGET_MS;

  /** A GET within the check's deadline that carries the key only to the API's own origin; redirects hop by hop. */
  async function get(start: URL, deadline: number): Promise<Response> {
    const apiKey = await options.apiKey();
    let url = start;
    for (let hop = 0; ; hop++) {
      const own = url.origin === base.origin;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw busy();
      let response: Response;
      try {
        response = await fetch(url, { headers: own ? { 'x-goog-api-key': apiKey } : {}, redirect: 'manual', signal: AbortSignal.timeout(remaining) });
      } catch (error) {
        throw toProviderError(error);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw failed();
        url = redirectTarget(url, location);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw isRetryableStatus(response.status) ? busy() : failed();
      }
      return response;
    }
  }

  /** Where a redirect leads: https only (http only from a loopback API to loopback: the contract fake). */
  function redirectTarget(from: URL, location: string): URL {
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw failed();
    }
    const loopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (next.protocol !== 'https:' && !(next.protocol === 'http:' && loopback(base) && loopback(next))) throw failed();
    return next;
  }

  /** The clip's download address, only on the API's own origin (the answer names it; nothing else is fetched). */
  function downloadUrl(uri: string): URL {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw failed();
    }
    if (url.origin !== base.origin) throw failed();
    return url;
  }

  /** The bytes of the clip Google holds; a transient failure or the deadline leaves it there for the next check. */
  async function clipBytes(video: Content, deadline: number): Promise<Buffer> {
    if (video.data) return Buffer.from(video.data, 'base64');
    const url = downloadUrl(video.uri!);
    try {
      const download = await get(url, deadline);
      const declared = Number(download.headers.get('content-length') ?? 0);
      if (declared > MAX_CLIP_BYTES) throw failed();
      return Buffer.from(await download.arrayBuffer());
    } catch (error) {
      const reason = toProviderError(error);
      if (reason.kind === 'transient') throw new DownloadPending();
      throw reason;
    }
  }

  /** Why an interaction ended without a video: a refusal when Google says so in words, otherwise a failure. */
  function endedWithout(interaction: InteractionBody): ProviderError {
    const texts = [
      ...(interaction.errors ?? []).map((error) => `${error.code ?? ''} ${error.message ?? ''}`),
      ...(interaction.steps ?? []).flatMap((step) => [step.error?.message ?? '', ...(step.content ?? []).map((content) => content.text ?? '')]),
    ];
    return texts.some((text) => REFUSAL.test(text)) ? contentPolicy() : failed();
  }

  return {
    async check(operationName): Promise<VideoStatus> {
      const parsed = parseOmniOperationName(operationName);
      if (!parsed) return { state: 'failed', error: failed() };
      const deadline = Date.now() + budgetMs;
      const answer = await get(new URL(`${API_VERSION}/interactions/${encodeURIComponent(parsed.interactionId)}`, base), deadline);
      const interaction = (await answer.json().catch(() => null)) as InteractionBody | null;
      if (!interaction || typeof interaction.status !== 'string') throw busy();
      if (RUNNING.has(interaction.status)) return { state: 'running' };
      // The clip the model made last (the output_video the SDK would pick: the last video of the model's output).
      const video = (interaction.steps ?? [])
        .filter((step) => step.type === 'model_output')
        .flatMap((step) => step.content ?? [])
        .filter((content) => content.type === 'video' && (content.uri || content.data))
        .at(-1);
      if (interaction.status !== 'completed' || !video) return { state: 'failed', error: endedWithout(interaction) };
      let bytes: Buffer;
      try {
        bytes = await clipBytes(video, deadline);
      } catch (error) {
        if (error instanceof DownloadPending) return { state: 'running' };
        throw error;
      }
      if (bytes.length === 0 || bytes.length > MAX_CLIP_BYTES) throw failed();
      await options.store(parsed.output, bytes);
      return { state: 'completed', output: parsed.output };
    },
  };
}
