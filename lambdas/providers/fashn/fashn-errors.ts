// FASHN failures as ProviderErrors. Sources:
//   "Error Handling - FASHN", https://docs.fashn.ai/api-overview/error-handling — API-level errors answer an HTTP
//   status with { "error": "<Name>", "message": "..." }: 400 BadRequest, 401 UnauthorizedAccess, 404 NotFound,
//   429 RateLimitExceeded / ConcurrencyLimitExceeded / OutOfCredits, 500 InternalServerError.
//   Runtime errors arrive in GET /v1/status/{id} as { "status": "failed", "error": { "name", "message" } } with the
//   names documented in the official TypeScript SDK (fashn-AI/fashn-typescript-sdk, src/resources/predictions.ts,
//   PredictionStatusResponse.Error): ImageLoadError, ContentModerationError, PoseError, InputValidationError,
//   PipelineError, ThirdPartyError, 3rdPartyProviderError, InternalServerError ("Retry request" for the last three
//   and PipelineError: "Retry request (no charge for failures)"). The error-handling page of FASHN's current
//   documents adds UnavailableError, and for it and ThirdPartyError says "Retry with backoff" (issue 46, reading
//   https://docs.fashn.ai/api-overview/error-handling). A failed prediction is not billed, so each of these is retried
//   with a new prediction (fashn-on-model.ts).
// The provider's message is never passed on.
import { CONTENT_POLICY_MESSAGE, ProviderError } from '../ports.js';

export const FASHN_BUSY_MESSAGE = 'The on-model photo service is busy right now. Please try again in a moment.';
export const FASHN_FAILED_MESSAGE = 'The on-model photo service could not process this image. Please try again.';
export const FASHN_TIMEOUT_MESSAGE = 'The on-model photo took too long to generate. Please try again.';

/** Runtime errors documented as worth retrying ("Retry request", "Retry with backoff"). */
export const RETRYABLE_RUNTIME_ERRORS: ReadonlySet<string> = new Set(['PipelineError', 'ThirdPartyError', 'UnavailableError', '3rdPartyProviderError', 'InternalServerError']);
const RETRYABLE_API_ERRORS = new Set(['RateLimitExceeded', 'ConcurrencyLimitExceeded', 'InternalServerError']);

/** A failed prediction's `error.name`. */
export function errorForRuntimeFailure(name: unknown): ProviderError {
  if (name === 'ContentModerationError') return new ProviderError('content_policy', CONTENT_POLICY_MESSAGE);
  if (typeof name === 'string' && RETRYABLE_RUNTIME_ERRORS.has(name)) return new ProviderError('transient', FASHN_BUSY_MESSAGE);
  return new ProviderError('failed', FASHN_FAILED_MESSAGE);
}

/** A non-2xx answer of /v1/run or /v1/status. OutOfCredits (also a 429) does not clear by waiting. */
export function errorForHttpFailure(status: number, errorName: unknown): ProviderError {
  if (errorName === 'OutOfCredits') return new ProviderError('failed', FASHN_FAILED_MESSAGE);
  if (status >= 500 || (typeof errorName === 'string' && RETRYABLE_API_ERRORS.has(errorName)) || status === 429) {
    return new ProviderError('transient', FASHN_BUSY_MESSAGE);
  }
  return new ProviderError('failed', FASHN_FAILED_MESSAGE);
}

/** fetch() itself failed: no connection, reset, or our own deadline's abort. */
export function errorForNetworkFailure(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new ProviderError('transient', FASHN_TIMEOUT_MESSAGE);
  return new ProviderError('transient', FASHN_BUSY_MESSAGE);
}
