// The @google/genai client of the Gemini Developer API, made once per key reader: API-key auth (no Google Cloud
// credentials), a deadline per call, an optional base URL (httpOptions.baseUrl: the contract fakes on loopback), and
// the SDK's own retries OFF (httpOptions.retryOptions.attempts 1). Every call the adapters make generates something
// Google bills (an image, a video), and the SDK retries 408/429/5xx and its own timeouts: a call that timed out after
// Google began the work is billed again each time it is sent (one image call that hit its timeout was sent 4 times,
// measured against a slow loopback server, issue 46). So each adapter decides what may be sent again: only what
// Google answered 429 to and what never reached Google (retryGoogle below; the video start, omni-video.ts).
import type { GoogleGenAI } from '@google/genai';
import type { ApiKeyReader } from './api-key.js';
import { failureOf, isAccountNotPaid, isPreCallFailure } from './errors.js';

export interface GoogleClientOptions {
  apiKey: ApiKeyReader;
  /** Default: the SDK's, https://generativelanguage.googleapis.com. */
  baseUrl?: string;
  /** Milliseconds one call may take (default 120 s: a 4K image takes tens of seconds). */
  timeoutMs?: number;
}

export type GoogleClient = () => Promise<GoogleGenAI>;

export function googleClient(options: GoogleClientOptions): GoogleClient {
  let client: Promise<GoogleGenAI> | undefined;
  async function create(): Promise<GoogleGenAI> {
    const [{ GoogleGenAI }, apiKey] = await Promise.all([import('@google/genai'), options.apiKey()]);
    return new GoogleGenAI({
      apiKey,
      httpOptions: {
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        timeout: options.timeoutMs ?? 120_000,
        retryOptions: { attempts: 1 },
      },
    });
  }
  return () => {
    client ??= create().catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
}

/** Whether a failed generation call may be sent again: Google answered 429 (nothing made), or nothing reached Google. */
export const mayResend = (error: unknown): boolean => (failureOf(error).status === 429 && !isAccountNotPaid(error)) || isPreCallFailure(error);

export interface ResendPolicy {
  /** Calls in all, the first included (default 3). */
  attempts?: number;
  /** First back-off in ms, doubling (default 2 s). */
  initialDelayMs?: number;
  /** No back-off starts past this time (ms since the epoch). */
  deadline?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A generation call, sent again only when `mayResend` says nothing was made: a timeout, a reset or a 5xx is never sent
 * twice within this task attempt (the workflow's own retry is the next attempt, bounded by its ASL).
 */
export async function retryGoogle<T>(call: () => Promise<T>, policy: ResendPolicy = {}): Promise<T> {
  const attempts = Math.max(1, policy.attempts ?? 3);
  const initialDelayMs = policy.initialDelayMs ?? 2000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const delay = initialDelayMs * 2 ** (attempt - 1);
      const inTime = policy.deadline === undefined || Date.now() + delay < policy.deadline;
      if (attempt >= attempts || !mayResend(error) || !inTime) throw error;
      await sleep(delay);
    }
  }
}
