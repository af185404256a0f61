// The two calls of FASHN's API that every model shares, with a deadline: POST /v1/run starts a prediction and
// GET /v1/status/{id} reads it. Source: "API Fundamentals - FASHN", https://docs.fashn.ai/api-overview/api-fundamentals:
//   POST {base}/v1/run   Authorization: Bearer <key>, body { "model_name": "...", "inputs": { ... } }
//                        → { "id": "123a87r9-...-u1", "error": null }
//   GET  {base}/v1/status/{id}
//                        → { "id", "status": "starting" | "in_queue" | "processing" | "completed" | "failed"
//                            | "canceled" | "time_out", "output": ["https://cdn.fashn.ai/<id>/output_0.png"],
//                            "error": null | { "name", "message" } }
// (The status values as the official SDK types them: fashn-AI/fashn-typescript-sdk, src/resources/predictions.ts.)
// The status answer of a finished prediction carries the credits it consumed in the header x-fashn-credits-used (the
// SDK reads it: `const CREDITS_HEADER = 'x-fashn-credits-used'`, result.creditsUsed).
import { ProviderError } from '../ports.js';
import { errorForHttpFailure, errorForNetworkFailure, FASHN_FAILED_MESSAGE, FASHN_TIMEOUT_MESSAGE } from './fashn-errors.js';
import { hostsVouchedForBy, type OutputUrlPolicy } from './outputs.js';

export interface FashnApiOptions {
  /** e.g. https://api.fashn.ai (a trailing /v1 is accepted). */
  baseUrl: string;
  apiKey: () => Promise<string>;
  /** Extra hosts outputs may come from, besides the API host and its parent domain. */
  outputHosts?: readonly string[];
  /** Allows http:// for the API and its outputs: for a local test server only. */
  allowInsecureHttp?: boolean;
}

export interface PredictionStatus {
  status?: unknown;
  output?: unknown;
  error?: { name?: unknown } | null;
  /** x-fashn-credits-used of the answer, when FASHN sent it. */
  creditsUsed?: number;
}

export const CREDITS_USED_HEADER = 'x-fashn-credits-used';

/** A prediction that has not ended yet. */
export const PENDING_STATUSES: ReadonlySet<unknown> = new Set(['starting', 'in_queue', 'processing']);

export interface FashnApi {
  /** Starts a billed prediction; answers its id. */
  run(modelName: string, inputs: Record<string, unknown>, deadline: number): Promise<string>;
  status(predictionId: string, deadline: number): Promise<PredictionStatus | null>;
  /** Where a prediction's outputs may be downloaded from. */
  outputPolicy: OutputUrlPolicy;
}

export function createFashnApi(options: FashnApiOptions): FashnApi {
  const apiUrl = new URL(options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '') + '/');
  const allowInsecureHttp = options.allowInsecureHttp ?? false;
  if (apiUrl.protocol !== 'https:' && !(allowInsecureHttp && apiUrl.protocol === 'http:')) {
    throw new Error('FASHN_API_URL must be an https:// URL');
  }

  async function callApi(path: string, init: RequestInit, deadline: number): Promise<{ body: unknown; headers: Headers }> {
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
    return { body, headers: response.headers };
  }

  return {
    async run(modelName, inputs, deadline) {
      const started = (await callApi('v1/run', { method: 'POST', body: JSON.stringify({ model_name: modelName, inputs }) }, deadline)).body as {
        id?: unknown;
      } | null;
      if (typeof started?.id !== 'string' || !started.id) throw new ProviderError('failed', FASHN_FAILED_MESSAGE);
      return started.id;
    },
    async status(predictionId, deadline) {
      const { body, headers } = await callApi(`v1/status/${encodeURIComponent(predictionId)}`, { method: 'GET' }, deadline);
      if (!body || typeof body !== 'object') return null;
      const credits = Number(headers.get(CREDITS_USED_HEADER) ?? NaN);
      return { ...(body as PredictionStatus), ...(Number.isFinite(credits) ? { creditsUsed: credits } : {}) };
    },
    outputPolicy: { allowedHosts: hostsVouchedForBy(apiUrl, options.outputHosts), allowInsecureHttp },
  };
}
