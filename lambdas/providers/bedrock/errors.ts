// The one place where Bedrock failures (Stability image services and Luma Ray2 alike) become ProviderErrors.
// Raw provider text is only ever *inspected* here, never passed on: every message that leaves is one of ours.
import { CONTENT_POLICY_MESSAGE, ProviderError } from '../ports.js';

export const BEDROCK_BUSY_MESSAGE = 'The AI service is busy right now. Please try again in a moment.';
export const BEDROCK_FAILED_MESSAGE = 'The AI service could not process this request. Please try again.';

/**
 * Bedrock's wording for a content refusal. Stability reports it in `finish_reasons` as "Filter reason: prompt" /
 * "Filter reason: input image" / "Filter reason: output image" (Stability AI Image Services - Amazon Bedrock,
 * https://docs.aws.amazon.com/bedrock/latest/userguide/stable-image-services.html, "Request and response");
 * Bedrock's own filters answer "... blocked by our content filters". Both are shown as the error catalogue's 'Content Policy' message.
 */
const CONTENT_FILTER_PATTERNS = [/filter reason:/i, /content filter/i];

export function isContentFilterText(text: string | null | undefined): boolean {
  return !!text && CONTENT_FILTER_PATTERNS.some((pattern) => pattern.test(text));
}

/**
 * SDK exception names worth retrying (the `@aws-sdk/client-bedrock-runtime` error classes). A quota refusal
 * (e.g. too many concurrent async invocations) clears by itself, so it is retried too.
 */
const TRANSIENT_ERROR_NAMES = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelTimeoutException',
  'ModelNotReadyException',
  'ServiceQuotaExceededException',
  // Network-level failures of the HTTP handler and of AbortSignal.timeout().
  'TimeoutError',
  'AbortError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND']);

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
}

function isTransient(error: ErrorLike): boolean {
  if (typeof error.name === 'string' && TRANSIENT_ERROR_NAMES.has(error.name)) return true;
  if (typeof error.code === 'string' && TRANSIENT_NETWORK_CODES.has(error.code)) return true;
  if (error.$retryable) return true;
  const status = error.$metadata?.httpStatusCode;
  return status === 429 || (typeof status === 'number' && status >= 500);
}

/** Any error thrown while calling Bedrock, as a ProviderError with a message that is safe to show. */
export function toProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const candidate: ErrorLike = typeof error === 'object' && error !== null ? (error as ErrorLike) : {};
  if (typeof candidate.message === 'string' && isContentFilterText(candidate.message)) {
    return new ProviderError('content_policy', CONTENT_POLICY_MESSAGE);
  }
  if (isTransient(candidate)) return new ProviderError('transient', BEDROCK_BUSY_MESSAGE);
  return new ProviderError('failed', BEDROCK_FAILED_MESSAGE);
}

/**
 * A Stability `finish_reasons` entry: null means success; "Filter reason: …" is a refusal; "Inference error" is a
 * fault on the provider's side that a retry may clear.
 */
export function errorForFinishReason(reason: string | null | undefined): ProviderError | null {
  if (reason === null || reason === undefined) return null;
  if (isContentFilterText(reason)) return new ProviderError('content_policy', CONTENT_POLICY_MESSAGE);
  if (/inference error/i.test(reason)) return new ProviderError('transient', BEDROCK_BUSY_MESSAGE);
  return new ProviderError('failed', BEDROCK_FAILED_MESSAGE);
}

/** GetAsyncInvoke `failureMessage` of a Failed invocation (Luma Ray2). */
export function errorForAsyncFailure(failureMessage: string | null | undefined): ProviderError {
  if (isContentFilterText(failureMessage)) return new ProviderError('content_policy', CONTENT_POLICY_MESSAGE);
  return new ProviderError('failed', BEDROCK_FAILED_MESSAGE);
}

/** Runs an AWS SDK call (Bedrock, or S3 for the video output) and turns whatever it throws into a ProviderError. */
export async function callAws<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toProviderError(error);
  }
}
