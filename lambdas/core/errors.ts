// Typed errors: each carries the HTTP status and the stable code the API answers with.
// The message is what the user reads, so it never contains internals.
import { ACCOUNT_MESSAGES } from '../contracts/account.js';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Response headers the answer carries (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string) => new AppError(400, code, message);
export const forbidden = (code: string, message: string) => new AppError(403, code, message);
export const notFound = (message = 'Not found') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
/** An account being deleted or deleted: refused on every route, whatever credential still names it. */
export const accountDeleted = () => new AppError(401, 'ACCOUNT_DELETED', ACCOUNT_MESSAGES.deleted);
export const tooManyRequests = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError(429, code, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export class InsufficientCreditsError extends AppError {
  constructor(
    readonly needed: number,
    readonly available: number,
  ) {
    super(402, 'INSUFFICIENT_CREDITS', `Insufficient credits: you need ${needed} credits but only have ${available}.`);
  }
}
