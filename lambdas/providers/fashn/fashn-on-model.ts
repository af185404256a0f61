// OnModelImagePort on a FASHN-compatible HTTPS API (the run and status calls: fashn-api.ts).
// "Product to Model - FASHN" (https://docs.fashn.ai/api-reference/product-to-model) gives a job 20–120 s. Each run is
// billed, so `generate` hands the prediction id to the caller's ProviderJobMemory before it polls, and a call that
// names an earlier id (a retried workflow task) polls that prediction instead of starting another. It polls within
// the Process task's own budget (DEFAULT_DEADLINE_MS); past it, the result is a 'transient' ProviderError and the
// workflow's retry resumes the same prediction.
import type { ImageOutput, OnModelImagePort, OnModelImageRequest, ProviderJobMemory } from '../ports.js';
import { ProviderError } from '../ports.js';
import { toExactOutput } from '../bedrock/image-sizing.js';
import { createFashnApi, PENDING_STATUSES, type FashnApiOptions } from './fashn-api.js';
import { errorForRuntimeFailure, FASHN_FAILED_MESSAGE, FASHN_TIMEOUT_MESSAGE } from './fashn-errors.js';
import { fetchOutputImage } from './outputs.js';
import { FASHN_PRODUCT_TO_MODEL, productToModelInputs } from './product-to-model.js';

export interface FashnOnModelOptions extends FashnApiOptions {
  /** Total time `generate` may take, run + polling + download. */
  deadlineMs?: number;
  pollIntervalMs?: number;
  modelName?: string;
}

/** The longest product-to-model job FASHN documents. */
export const FASHN_LONGEST_JOB_MS = 120_000;
/**
 * Run, polling and download together: twice the longest documented job, and 60 s short of the Process task's 300 s
 * (lambdas/workflows.ts), which still stores the picture and its thumbnail afterwards.
 */
export const DEFAULT_DEADLINE_MS = 240_000;
export const DEFAULT_POLL_INTERVAL_MS = 2_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createFashnOnModel(options: FashnOnModelOptions): OnModelImagePort {
  const api = createFashnApi(options);
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const modelName = options.modelName ?? FASHN_PRODUCT_TO_MODEL;

  async function awaitOutput(id: string, deadline: number): Promise<string> {
    for (;;) {
      const status = await api.status(id, deadline);
      if (status?.status === 'completed') {
        const first = Array.isArray(status.output) ? (status.output as unknown[])[0] : undefined;
        if (typeof first !== 'string') throw new ProviderError('failed', FASHN_FAILED_MESSAGE);
        return first;
      }
      if (!PENDING_STATUSES.has(status?.status)) throw errorForRuntimeFailure(status?.error?.name);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ProviderError('transient', FASHN_TIMEOUT_MESSAGE);
      await sleep(Math.min(pollIntervalMs, remaining));
    }
  }

  /** Starts one billed prediction and has it remembered before anything waits for it. */
  async function startPrediction(request: OnModelImageRequest, deadline: number, job: ProviderJobMemory | undefined): Promise<string> {
    const id = await api.run(modelName, await productToModelInputs(request), deadline);
    await job?.remember(id);
    return id;
  }

  return {
    async generate(request: OnModelImageRequest, job?: ProviderJobMemory): Promise<ImageOutput> {
      const deadline = Date.now() + deadlineMs;
      const predictionId = job?.started ?? (await startPrediction(request, deadline, job));
      const output = await awaitOutput(predictionId, deadline);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ProviderError('transient', FASHN_TIMEOUT_MESSAGE);
      const bytes = await fetchOutputImage(output, api.outputPolicy, AbortSignal.timeout(remaining));
      return toExactOutput(bytes, request.size, 'cover', `fashn:${modelName}`);
    },
  };
}
