// OnModelImagePort on a FASHN-compatible HTTPS API. Source: "API Fundamentals - FASHN",
// https://docs.fashn.ai/api-overview/api-fundamentals:
//   POST {base}/v1/run   Authorization: Bearer <key>, body { "model_name": "...", "inputs": { ... } }
//                        → { "id": "123a87r9-...-u1", "error": null }
//   GET  {base}/v1/status/{id}
//                        → { "id", "status": "starting" | "in_queue" | "processing" | "completed" | "failed"
//                            (| "canceled" | "time_out"), "output": ["https://cdn.fashn.ai/<id>/output_0.png"],
//                            "error": null | { "name", "message" } }
// `generate` polls within a deadline (a request must not outlive API Gateway's ~29 s); past it, the result is a
// 'transient' ProviderError and the caller may try again.
import type { ImageOutput, OnModelImagePort, OnModelImageRequest } from '../ports.js';
import { ProviderError } from '../ports.js';
import { toExactOutput } from '../bedrock/image-sizing.js';
import {
  errorForHttpFailure,
  errorForNetworkFailure,
  errorForRuntimeFailure,
  FASHN_FAILED_MESSAGE,
  FASHN_TIMEOUT_MESSAGE,
} from './fashn-errors.js';
import { fetchOutputImage, hostsVouchedForBy, type OutputUrlPolicy } from './output-image.js';
import { FASHN_PRODUCT_TO_MODEL, productToModelInputs } from './product-to-model.js';

export interface FashnOnModelOptions {
  /** e.g. https://api.fashn.ai (a trailing /v1 is accepted). */
  baseUrl: string;
  apiKey: () => Promise<string>;
  /** Total time `generate` may take, run + polling + download. */
  deadlineMs?: number;
  pollIntervalMs?: number;
  modelName?: string;
  /** Extra hosts outputs may come from, besides the API host and its parent domain. */
  outputHosts?: readonly string[];
  /** Allows http:// for the API and its outputs: for a local test server only. */
  allowInsecureHttp?: boolean;
}

export const DEFAULT_DEADLINE_MS = 25_000;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
const PENDING = new Set(['starting', 'in_queue', 'processing']);

interface StatusBody {
  status?: unknown;
  output?: unknown;
  error?: { name?: unknown } | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createFashnOnModel(options: FashnOnModelOptions): OnModelImagePort {
  const apiUrl = new URL(options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '') + '/');
  const allowInsecureHttp = options.allowInsecureHttp ?? false;
  if (apiUrl.protocol !== 'https:' && !(allowInsecureHttp && apiUrl.protocol === 'http:')) {
    throw new Error('FASHN_API_URL must be an https:// URL');
  }
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const modelName = options.modelName ?? FASHN_PRODUCT_TO_MODEL;
  const outputPolicy: OutputUrlPolicy = { allowedHosts: hostsVouchedForBy(apiUrl, options.outputHosts), allowInsecureHttp };

  async function callApi(path: string, init: RequestInit, deadline: number): Promise<unknown> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ProviderError('transient', FASHN_TIMEOUT_MESSAGE);
    const key = await options.apiKey();
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(new URL(path, apiUrl), {
        ...init,
        redirect: 'error',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(remaining),
      });
      body = await response.json().catch(() => null);
    } catch (error) {
      throw errorForNetworkFailure(error);
    }
    if (!response.ok) throw errorForHttpFailure(response.status, (body as { error?: unknown } | null)?.error);
    return body;
  }

  async function awaitOutput(id: string, deadline: number): Promise<string> {
    for (;;) {
      const status = (await callApi(`v1/status/${encodeURIComponent(id)}`, { method: 'GET' }, deadline)) as StatusBody | null;
      if (status?.status === 'completed') {
        const first = Array.isArray(status.output) ? (status.output as unknown[])[0] : undefined;
        if (typeof first !== 'string') throw new ProviderError('failed', FASHN_FAILED_MESSAGE);
        return first;
      }
      if (typeof status?.status !== 'string' || !PENDING.has(status.status)) throw errorForRuntimeFailure(status?.error?.name);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ProviderError('transient', FASHN_TIMEOUT_MESSAGE);
      await sleep(Math.min(pollIntervalMs, remaining));
    }
  }

  return {
    async generate(request: OnModelImageRequest): Promise<ImageOutput> {
      const deadline = Date.now() + deadlineMs;
      const inputs = await productToModelInputs(request);
      const started = (await callApi('v1/run', { method: 'POST', body: JSON.stringify({ model_name: modelName, inputs }) }, deadline)) as {
        id?: unknown;
      } | null;
      if (typeof started?.id !== 'string' || !started.id) throw new ProviderError('failed', FASHN_FAILED_MESSAGE);
      const output = await awaitOutput(started.id, deadline);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ProviderError('transient', FASHN_TIMEOUT_MESSAGE);
      const bytes = await fetchOutputImage(output, outputPolicy, AbortSignal.timeout(remaining));
      return toExactOutput(bytes, request.size, 'cover', `fashn:${modelName}`);
    },
  };
}
