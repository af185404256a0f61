// OnModelImagePort on a FASHN-compatible HTTPS API (the run and status calls: fashn-api.ts).
// "Product to Model - FASHN" (https://docs.fashn.ai/api-reference/product-to-model) gives a job 20–120 s. Each run is
// billed, so `generate` hands the prediction id to the caller's ProviderJobMemory before it polls, and a call that
// names an earlier id (a retried workflow task) polls that prediction instead of starting another. It polls within
// the Process task's own budget (DEFAULT_DEADLINE_MS); past it, the result is a 'transient' ProviderError and the
// workflow's retry resumes the same prediction.
// A prediction that failed with a runtime error FASHN documents as worth retrying (RETRYABLE_RUNTIME_ERRORS: "Retry
// request (no charge for failures)", "Retry with backoff") is replaced by a new one, after a back-off, while the budget
// lasts; its id is remembered too, so a retried task waits for the newest. The credits FASHN reports for the finished
// prediction (x-fashn-credits-used) are compared with the dated table's, and a bill above it is logged.
import type { ImageOutput, OnModelImagePort, OnModelImageRequest, ProviderJobMemory } from '../ports.js';
import { ProviderError } from '../ports.js';
import { toExactOutput } from '../bedrock/image-sizing.js';
import { createFashnApi, PENDING_STATUSES, type FashnApiOptions } from './fashn-api.js';
import { log } from '../../core/log.js';
import { errorForRuntimeFailure, FASHN_FAILED_MESSAGE, FASHN_TIMEOUT_MESSAGE, RETRYABLE_RUNTIME_ERRORS } from './fashn-errors.js';
import { FASHN_MODELS } from './model-table.js';
import { fetchOutputImage } from './outputs.js';
import { FASHN_PRODUCT_TO_MODEL, productToModelInputs, resolutionFor } from './product-to-model.js';

export interface FashnOnModelOptions extends FashnApiOptions {
  /** Total time `generate` may take, run + polling + download. */
  deadlineMs?: number;
  pollIntervalMs?: number;
  modelName?: string;
  /** Replacing failed predictions: first back-off (doubling) and predictions per call (default DEFAULT_RETRY). */
  retry?: { initialDelayMs?: number; predictions?: number };
}

/** A prediction that failed with an error FASHN documents as worth retrying with a new prediction. */
class RetryablePredictionFailure extends Error {
  constructor(readonly error: ProviderError) {
    super(error.message);
  }
}

/** The longest product-to-model job FASHN documents. */
export const FASHN_LONGEST_JOB_MS = 120_000;
/**
 * Run, polling and download together: twice the longest documented job, and 60 s short of the Process task's 300 s
 * (lambdas/workflows.ts), which still stores the picture and its thumbnail afterwards.
 */
export const DEFAULT_DEADLINE_MS = 240_000;
export const DEFAULT_POLL_INTERVAL_MS = 2_000;
/** The first back-off before a failed prediction is replaced (doubling), and how many predictions one call may start. */
export const DEFAULT_RETRY = { initialDelayMs: 2_000, predictions: 3 } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createFashnOnModel(options: FashnOnModelOptions): OnModelImagePort {
  const api = createFashnApi(options);
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const modelName = options.modelName ?? FASHN_PRODUCT_TO_MODEL;
  const retryDelayMs = options.retry?.initialDelayMs ?? DEFAULT_RETRY.initialDelayMs;
  const retryPredictions = Math.max(1, options.retry?.predictions ?? DEFAULT_RETRY.predictions);

  async function awaitOutput(id: string, deadline: number, expectedCredits: number): Promise<string> {
    for (;;) {
      const status = await api.status(id, deadline);
      if (status?.status === 'completed') {
        if (status.creditsUsed !== undefined && status.creditsUsed > expectedCredits) {
          log.warn('fashn billed more credits than the model table says', { predictionId: id, creditsUsed: status.creditsUsed, expectedCredits });
        }
        const first = Array.isArray(status.output) ? (status.output as unknown[])[0] : undefined;
        if (typeof first !== 'string') throw new ProviderError('failed', FASHN_FAILED_MESSAGE);
        return first;
      }
      if (!PENDING_STATUSES.has(status?.status)) {
        const name = status?.error?.name;
        const error = errorForRuntimeFailure(name);
        throw typeof name === 'string' && RETRYABLE_RUNTIME_ERRORS.has(name) ? new RetryablePredictionFailure(error) : error;
      }
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
      const model = FASHN_MODELS['product-to-model'];
      const expectedCredits = model.credits[resolutionFor(request.size)].credits + (request.model.referenceImage ? model.faceReferenceCredits : 0);
      let predictionId = job?.started ?? (await startPrediction(request, deadline, job));
      let output: string;
      for (let started = 1; ; started++) {
        try {
          output = await awaitOutput(predictionId, deadline, expectedCredits);
          break;
        } catch (error) {
          if (!(error instanceof RetryablePredictionFailure)) throw error;
          const delay = retryDelayMs * 2 ** (started - 1);
          // Out of predictions or of time: the workflow's retry (a new task attempt) starts the next one.
          if (started >= retryPredictions || Date.now() + delay >= deadline) throw error.error;
          await sleep(delay);
          predictionId = await startPrediction(request, deadline, job);
        }
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ProviderError('transient', FASHN_TIMEOUT_MESSAGE);
      const bytes = await fetchOutputImage(output, api.outputPolicy, AbortSignal.timeout(remaining));
      return toExactOutput(bytes, request.size, 'cover', `fashn:${modelName}`);
    },
  };
}
