// Google API failures as ProviderErrors. Raw provider text is never passed on: every message that leaves is ours.
// Sources: "Troubleshooting guide" (https://ai.google.dev/gemini-api/docs/troubleshooting): 429 RESOURCE_EXHAUSTED
// (rate limit or quota), 500 INTERNAL, 503 UNAVAILABLE, 504 DEADLINE_EXCEEDED are worth retrying; 400
// INVALID_ARGUMENT / FAILED_PRECONDITION ("Gemini API free tier is not available in your country. Please enable
// billing on your project"), 403 PERMISSION_DENIED, 404 NOT_FOUND are not. @google/genai throws `ApiError` { status }
// for a non-2xx answer of the models API and `APIError` { status, error } for one of the Interactions API; a request
// that never reached Google is a fetch TypeError (its cause's code, e.g. ECONNREFUSED), wrapped by the Interactions
// client in an APIConnectionError whose cause chain keeps it.
// A key without paid access: the models a studio calls have no free tier ("Free Tier: Not available" for
// gemini-3.1-flash-image; Gemini Omni "has no free tier"), so such a key is answered 429 with a quota of zero, e.g.
// "Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model:
// gemini-2.5-flash-preview-image" (the Gemini API's answer as googleapis/js-genai issue #1322 shows it, 2026-02-12).
// That is not "busy": waiting never helps, so it is not retried and says what is wrong.
// GenerateContentResponse (https://ai.google.dev/api/generate-content#generatecontentresponse):
//   promptFeedback.blockReason  SAFETY | OTHER | BLOCKLIST | PROHIBITED_CONTENT | IMAGE_SAFETY: the input was refused;
//   candidates[].finishReason   SAFETY | BLOCKLIST | PROHIBITED_CONTENT | SPII | IMAGE_SAFETY |
//                               IMAGE_PROHIBITED_CONTENT | RECITATION | IMAGE_RECITATION: the output was refused.
//   RECITATION: "The response candidate content was flagged for recitation reasons"; SPII: "The response candidate
//   content was flagged for containing Sensitive Personally Identifiable Information" (FinishReason, @google/genai).
import { PROVIDER_MESSAGES } from '../../contracts/catalog.js';
import { CONTENT_POLICY_MESSAGE, ProviderError } from '../ports.js';

export const GOOGLE_BUSY_MESSAGE = 'The AI service is busy right now. Please try again in a moment.';
export const GOOGLE_FAILED_MESSAGE = 'The AI service could not process this request. Please try again.';

const POLICY_FINISH_REASONS = new Set(['SAFETY', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT']);
const RECITATION_FINISH_REASONS = new Set(['RECITATION', 'IMAGE_RECITATION']);
const PERSONAL_DATA_FINISH_REASONS = new Set(['SPII']);

export const contentPolicy = () => new ProviderError('content_policy', CONTENT_POLICY_MESSAGE);
export const busy = () => new ProviderError('transient', GOOGLE_BUSY_MESSAGE);
export const failed = () => new ProviderError('failed', GOOGLE_FAILED_MESSAGE);
export const accountNotPaid = () => new ProviderError('account', PROVIDER_MESSAGES.accountNotPaid);

/** Whether an HTTP status of the Gemini API is worth retrying. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** The refusal of a finish reason: its own message for recitation and personal data, the policy message otherwise. */
function refusalFor(reason: string): ProviderError | null {
  if (RECITATION_FINISH_REASONS.has(reason)) return new ProviderError('content_policy', PROVIDER_MESSAGES.recitation);
  if (PERSONAL_DATA_FINISH_REASONS.has(reason)) return new ProviderError('content_policy', PROVIDER_MESSAGES.personalData);
  return POLICY_FINISH_REASONS.has(reason) ? contentPolicy() : null;
}

/** A refusal in a generateContent answer (prompt blocked, or the candidate stopped for a policy reason), or null. */
export function refusalOf(response: { promptFeedback?: { blockReason?: unknown }; candidates?: Array<{ finishReason?: unknown }> }): ProviderError | null {
  if (response.promptFeedback?.blockReason) return contentPolicy();
  const reason = response.candidates?.[0]?.finishReason;
  return typeof reason === 'string' ? refusalFor(reason) : null;
}

/** The status and the text (message and error body) of an SDK or fetch failure. */
export function failureOf(error: unknown): { status?: number; text: string } {
  const candidate = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; message?: unknown; error?: unknown; body?: unknown };
  const text = [candidate.message, candidate.body, candidate.error === undefined ? undefined : JSON.stringify(candidate.error)]
    .filter((part): part is string => typeof part === 'string')
    .join(' ');
  return { status: typeof candidate.status === 'number' ? candidate.status : undefined, text };
}

/** A key or project without paid access: a free-tier quota (limit 0), or billing asked for. */
export function isAccountNotPaid(error: unknown): boolean {
  const { status, text } = failureOf(error);
  if (status === 429) return /free_tier|limit:\s*0\b/i.test(text);
  if (status === 400 || status === 403) return /billing/i.test(text) && /FAILED_PRECONDITION|PERMISSION_DENIED|enable billing|BILLING_DISABLED/i.test(text);
  return false;
}

/** Error codes of a connection that was never made: nothing reached Google, so sending again cannot bill twice. */
const PRE_CALL_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** Whether the request never left for Google (the connection failed before it was sent). */
export function isPreCallFailure(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 6; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && PRE_CALL_CODES.has(code)) return true;
  }
  return false;
}

/** Anything a call to the Gemini API threw, as a ProviderError. */
export function toProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (isAccountNotPaid(error)) return accountNotPaid();
  const { status } = failureOf(error);
  if (status !== undefined) return isRetryableStatus(status) ? busy() : failed();
  const name = (error as { name?: unknown } | null)?.name;
  // fetch() itself failed (no connection, reset), the SDK's own connection error, or a deadline aborted it.
  if (name === 'TimeoutError' || name === 'AbortError' || error instanceof TypeError || isPreCallFailure(error)) return busy();
  if (typeof name === 'string' && /^APIConnection/.test(name)) return busy();
  return failed();
}

export async function callGoogle<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toProviderError(error);
  }
}
