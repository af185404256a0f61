// The @google/genai client of the Gemini Developer API, made once per key reader: API-key auth (no Google Cloud
// credentials), the SDK's own retry of 408/429/5xx with exponential backoff (httpOptions.retryOptions), a deadline
// per attempt, and an optional base URL (httpOptions.baseUrl: the contract fakes on loopback).
import type { GoogleGenAI } from '@google/genai';
import type { ApiKeyReader } from './api-key.js';

export interface GoogleClientOptions {
  apiKey: ApiKeyReader;
  /** Default: the SDK's, https://generativelanguage.googleapis.com. */
  baseUrl?: string;
  /** Attempts of one call, the first included (default 4), and the first back-off in seconds (default 2, doubling). */
  retry?: { attempts?: number; initialDelaySeconds?: number };
  /** Milliseconds one attempt may take (default 120 s: a 4K image takes tens of seconds). */
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
        retryOptions: {
          attempts: options.retry?.attempts ?? 4,
          initialDelay: options.retry?.initialDelaySeconds ?? 2,
          maxDelay: 20,
          httpStatusCodes: [408, 429, 500, 502, 503, 504],
        },
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
