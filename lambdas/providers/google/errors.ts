// Google API failures as ProviderErrors. Raw provider text is never passed on: every message that leaves is ours.
// Sources: "Troubleshooting guide" (https://ai.google.dev/gemini-api/docs/troubleshooting): 429 RESOURCE_EXHAUSTED
// (rate limit or quota), 500 INTERNAL, 503 UNAVAILABLE, 504 DEADLINE_EXCEEDED are worth retrying; 400
// INVALID_ARGUMENT / FAILED_PRECONDITION, 403 PERMISSION_DENIED, 404 NOT_FOUND are not. @google/genai throws
// `ApiError` { status } for a non-2xx answer (after its own retries, httpOptions.retryOptions).
// GenerateContentResponse (https://ai.google.dev/api/generate-content#generatecontentresponse):
//   promptFeedback.blockReason  SAFETY | OTHER | BLOCKLIST | PROHIBITED_CONTENT | IMAGE_SAFETY: the input was refused;
//   candidates[].finishReason   SAFETY | BLOCKLIST | PROHIBITED_CONTENT | SPII | IMAGE_SAFETY |
//                               IMAGE_PROHIBITED_CONTENT | RECITATION | IMAGE_RECITATION: the output was refused.
import { CONTENT_POLICY_MESSAGE, ProviderError } from '../ports.js';

export const GOOGLE_BUSY_MESSAGE = 'The AI service is busy right now. Please try again in a moment.';
export const GOOGLE_FAILED_MESSAGE = 'The AI service could not process this request. Please try again.';

const REFUSING_FINISH_REASONS = new Set([
  'SAFETY',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'RECITATION',
  'IMAGE_RECITATION',
]);

export const contentPolicy = () => new ProviderError('content_policy', CONTENT_POLICY_MESSAGE);
export const busy = () => new ProviderError('transient', GOOGLE_BUSY_MESSAGE);
export const failed = () => new ProviderError('failed', GOOGLE_FAILED_MESSAGE);

/** Whether an HTTP status of the Gemini API is worth retrying. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** A refusal in a generateContent answer (prompt blocked, or the candidate stopped for a policy reason), or null. */
export function refusalOf(response: { promptFeedback?: { blockReason?: unknown }; candidates?: Array<{ finishReason?: unknown }> }): ProviderError | null {
  if (response.promptFeedback?.blockReason) return contentPolicy();
  const reason = response.candidates?.[0]?.finishReason;
  return typeof reason === 'string' && REFUSING_FINISH_REASONS.has(reason) ? contentPolicy() : null;
}

/** Anything a call to the Gemini API threw, as a ProviderError. */
export function toProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const candidate = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; status?: unknown; code?: unknown; cause?: unknown };
  if (typeof candidate.status === 'number') return isRetryableStatus(candidate.status) ? busy() : failed();
  // fetch() itself failed (no connection, reset) or our deadline aborted it.
  if (candidate.name === 'TimeoutError' || candidate.name === 'AbortError' || error instanceof TypeError) return busy();
  return failed();
}

export async function callGoogle<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toProviderError(error);
  }
}
