// The one way the web app sends a request the server must act on once (a charge, a purchase, a checkout session):
// each new request gets a fresh Idempotency-Key; the same request sent again after a failure on the way reuses it.
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiError, newIdempotencyKey } from './api';

/** A failure after which the same attempt may be sent again: the server may or may not have seen it. */
const isRetryable = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

interface Attempt<TBody> {
  signature: string;
  body: TBody;
  key: string;
  /** When the server answered it (Date.now()); undefined while it may still be sent again after a failure. */
  answeredAt?: number;
}

/**
 * How long a request the server has answered stays "the same request": the same form sent again unchanged within
 * this time (a second click on Generate) carries the same Idempotency-Key, so the server replays its first answer
 * instead of charging again.
 */
export const SAME_REQUEST_WINDOW_MS = 10_000;

/**
 * A mutation whose every user action gets a fresh Idempotency-Key; sending the same body again after a failure on
 * the way (network, 5xx, 429) sends the same key, so the server acts once. A success or a final refusal (4xx) ends
 * the attempt. `pendingRetry` is the body that failed on the way and would be sent again with its key.
 */
export function useIdempotentMutation<TBody, TResult>({
  send,
  onSuccess,
  sameRequestWindowMs = 0,
}: {
  send: (body: TBody, idempotencyKey: string) => Promise<TResult>;
  onSuccess?: (result: TResult, body: TBody) => void;
  /** How long an answered body sent again unchanged keeps its key (SAME_REQUEST_WINDOW_MS for generations); 0: never. */
  sameRequestWindowMs?: number;
}) {
  const attempt = useRef<Attempt<TBody> | null>(null);
  const mutation = useMutation({
    mutationFn: (body: TBody) => {
      const signature = JSON.stringify(body);
      const previous = attempt.current;
      const reusable =
        previous?.signature === signature && (previous.answeredAt === undefined || Date.now() - previous.answeredAt < sameRequestWindowMs);
      if (!reusable) attempt.current = { signature, body, key: newIdempotencyKey() };
      return send(body, attempt.current!.key);
    },
    onSuccess: (result, body) => {
      attempt.current = sameRequestWindowMs > 0 && attempt.current ? { ...attempt.current, answeredAt: Date.now() } : null;
      onSuccess?.(result, body);
    },
    onError: (error) => {
      if (!isRetryable(error)) attempt.current = null;
    },
  });
  const pendingRetry = mutation.isError && attempt.current?.answeredAt === undefined ? attempt.current?.body : undefined;
  return { ...mutation, pendingRetry };
}
