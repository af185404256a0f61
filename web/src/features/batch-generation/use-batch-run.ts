// The batch the screen follows: the submit of the composed entries, "Retry failed" of a finished batch (a new batch
// through the same spending flow), and which batch is shown (`?batch=<id>` from History, else the one this browser
// last started).
import { retryFailedRequest, type Batch, type BatchStarted, type GenerateBatchRequest } from '@contracts/batch';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { isInsufficientCredits, useBuyCreditsAction } from '@/lib/buy-credits';
import { BATCH_PARAM } from '@/lib/next-step';
import { profileQueryKey, useSetBalance } from '@/lib/profile';
import { useUser } from '@/lib/session-context';
import { ACTIVE_BATCH_KEY, useBatch, useSubmitBatch } from './api';

export function useBatchRun() {
  const submit = useSubmitBatch();
  const setBalance = useSetBalance();
  const queryClient = useQueryClient();
  const user = useUser();
  const buyCredits = useBuyCreditsAction();
  const [params] = useSearchParams();
  const [activeId, setActiveId] = useState<string | undefined>(() => params.get(BATCH_PARAM) ?? localStorage.getItem(ACTIVE_BATCH_KEY) ?? undefined);
  const active = useBatch(activeId);
  /** The batch started on this screen in this visit (not one reopened from History or from an earlier visit). */
  const [startedId, setStartedId] = useState<string>();

  /** A started batch (a new one, or the retry of a finished one's failed photos) is the one the screen follows. */
  const follow = (started: BatchStarted) => {
    setBalance(started.remainingCredits);
    void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.userId) });
    localStorage.setItem(ACTIVE_BATCH_KEY, started.batchId);
    setActiveId(started.batchId);
    setStartedId(started.batchId);
    toast.success('Batch started', { description: started.message });
  };

  /** Sends a new batch; answers whether it started. */
  const start = async (body: GenerateBatchRequest): Promise<boolean> => {
    try {
      follow(await submit.mutateAsync(body));
      return true;
    } catch (error) {
      toast.error('Generation Failed', { description: error instanceof Error ? error.message : 'Please try again.' });
      return false;
    }
  };

  /** "Retry failed": just the failed photos again, as a new batch (a new charge). */
  const retryFailed = async (batch: Batch) => {
    const body = retryFailedRequest(batch);
    if (!body) return;
    try {
      follow(await submit.mutateAsync(body));
    } catch (error) {
      toast.error('Generation Failed', {
        description: error instanceof Error ? error.message : 'Please try again.',
        action: isInsufficientCredits(error) ? buyCredits : undefined,
      });
    }
  };

  const dismiss = () => {
    localStorage.removeItem(ACTIVE_BATCH_KEY);
    setActiveId(undefined);
  };

  return { activeId, active, startedHere: activeId !== undefined && activeId === startedId, sending: submit.isPending, start, retryFailed, dismiss };
}
