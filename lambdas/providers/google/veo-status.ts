// Whether a Veo clip is ready, and storing it where the video workflow expects it. This half of the Veo adapter runs in
// the workflow's CheckClip function, which is held to the lean bundle budget (400 KB): @google/genai alone is about
// 420 KB minified, so the check makes the two documented REST calls itself with fetch, the very calls the SDK's
// `operations.getVideosOperation` and `files.download` make:
//   GET {base}/v1beta/{operation name}   header x-goog-api-key   ("Generate videos with Veo 3.1",
//       https://ai.google.dev/gemini-api/docs/video, REST "Poll the operation"; google.longrunning.Operation)
//   → { name, done?: boolean, error?: { code, message },
//       response?: { "@type": "...PredictLongRunningResponse", generateVideoResponse: {
//         generatedSamples: [{ video: { uri: "https://generativelanguage.googleapis.com/v1beta/files/<id>:download?alt=media" } }],
//         raiMediaFilteredCount?: number, raiMediaFilteredReasons?: string[] } } }
//   GET {video uri}   header x-goog-api-key → the MP4 bytes, or a redirect to a storage host. The key goes to the
//       API's own origin only: redirects are followed by hand, and a hop to any other host is fetched without it (and
//       only over https), so the key never leaves for the redirect host.
// A clip filtered by Veo's responsible-AI checks (raiMediaFilteredCount > 0, no sample) is read by its reasons
// (raiMediaFilteredReasons, @google/genai GenerateVideosResponse: "Returns rai failure reasons if any"): a reason about
// the audio ("We encountered an issue with the audio for your prompt ... You will not be charged", the Veo safety
// guide's audio support codes) is the service failing to make the clip, so it is a failure, never shown as a content
// policy message about people; any other filtered reason is a content refusal. An operation that ends with `error`
// is a failure; 429 and 5xx are busy (the workflow retries, then fails and refunds).
import type { ProviderError, S3Location, VideoStatus } from '../ports.js';
import { busy, contentPolicy, failed, isRetryableStatus, toProviderError } from './errors.js';
import type { ApiKeyReader } from './api-key.js';
import { parseVeoOperationName } from './veo-operation.js';

export const GEMINI_API_BASE_URL = 'https://generativelanguage.googleapis.com';
const API_VERSION = 'v1beta';
/** A Veo clip at 720p is a few MB; anything far larger is not what was ordered. */
const MAX_CLIP_BYTES = 200 * 1024 * 1024;
/** Redirects a download may take. */
const MAX_REDIRECTS = 5;

/** Why Veo filtered a clip, read from its reasons: the audio step failing is not a refusal of the picture. */
export function filteredClipError(reasons: readonly string[] | undefined): ProviderError {
  const texts = (reasons ?? []).map((reason) => reason.toLowerCase());
  if (texts.length > 0 && texts.every((text) => /\baudio\b/.test(text))) return failed();
  return contentPolicy();
}

export interface VeoStatusOptions {
  apiKey: ApiKeyReader;
  /** Default: the Gemini API. */
  baseUrl?: string;
  /** Stores a finished clip at the location its operation name carries. */
  store: (location: S3Location, bytes: Buffer) => Promise<void>;
  /** Milliseconds each HTTP call may take (default 40 s: CheckClip has 60). */
  timeoutMs?: number;
}

interface OperationBody {
  done?: boolean;
  error?: { code?: number; message?: string };
  response?: {
    generateVideoResponse?: {
      generatedSamples?: Array<{ video?: { uri?: string } }>;
      raiMediaFilteredCount?: number;
      raiMediaFilteredReasons?: string[];
    };
  };
}

export function createVeoStatus(options: VeoStatusOptions): { check(operationName: string): Promise<VideoStatus> } {
  const base = new URL(`${(options.baseUrl ?? GEMINI_API_BASE_URL).replace(/\/+$/, '')}/`);
  const timeoutMs = options.timeoutMs ?? 40_000;

  /** A GET that carries the key only to the API's own origin; redirects are followed here, hop by hop. */
  async function get(start: URL): Promise<Response> {
    const apiKey = await options.apiKey();
    let url = start;
    for (let hop = 0; ; hop++) {
      const own = url.origin === base.origin;
      let response: Response;
      try {
        response = await fetch(url, { headers: own ? { 'x-goog-api-key': apiKey } : {}, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
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

  /** The sample's download address, only on the API's own origin (the answer names it; nothing else is fetched). */
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

  return {
    async check(operationName): Promise<VideoStatus> {
      const parsed = parseVeoOperationName(operationName);
      if (!parsed) return { state: 'failed', error: failed() };
      const answer = await get(new URL(`${API_VERSION}/${parsed.operation}`, base));
      const operation = (await answer.json().catch(() => null)) as OperationBody | null;
      if (!operation) throw busy();
      if (!operation.done) return { state: 'running' };
      if (operation.error) return { state: 'failed', error: failed() };
      const result = operation.response?.generateVideoResponse;
      const uri = result?.generatedSamples?.[0]?.video?.uri;
      if (!uri) {
        const filtered = (result?.raiMediaFilteredCount ?? 0) > 0 || (result?.raiMediaFilteredReasons?.length ?? 0) > 0;
        return { state: 'failed', error: filtered ? filteredClipError(result?.raiMediaFilteredReasons) : failed() };
      }
      const download = await get(downloadUrl(uri));
      const declared = Number(download.headers.get('content-length') ?? 0);
      if (declared > MAX_CLIP_BYTES) throw failed();
      const bytes = Buffer.from(await download.arrayBuffer());
      if (bytes.length === 0 || bytes.length > MAX_CLIP_BYTES) throw failed();
      await options.store(parsed.output, bytes);
      return { state: 'completed', output: parsed.output };
    },
  };
}
