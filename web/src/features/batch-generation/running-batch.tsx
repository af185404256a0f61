// The batch the screen follows: its progress (done, failed, in all), the toast and the scroll when it finishes, and what can be
// done with it then (the zip, "Retry failed", Close), with its photos below.
import { BATCH_MESSAGES, type Batch } from '@contracts/batch';
import { useQueryClient } from '@tanstack/react-query';
import { Download, RotateCcw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { toast } from 'sonner';
import { ModelPicture } from '@/components/generation/model-choice';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { saveAttachment } from '@/lib/downloads';
import { formatCredits } from '@/lib/format';
import { askForNotifications, notificationPermission, notifyWorkDone } from '@/lib/notify';
import { profileQueryKey } from '@/lib/profile';
import { useUser } from '@/lib/session-context';
import { batchQueryKey, requestBatchZip } from './api';
import { BatchPhotos } from './batch-photos';
import { PublishBatch } from '@/features/shops';

/**
 * When the batch this screen watched running finishes: one toast saying how it went (a refund re-reads the balance),
 * and the finished panel scrolled into view with focus on its title. A batch that had already finished when the
 * screen opened says nothing: its toast was shown when it finished (here, or by the app-wide one elsewhere).
 */
function useFinishedAnnouncement(batch: Batch | undefined, startedHere: boolean, panelTitle: RefObject<HTMLHeadingElement | null>) {
  const seenRunning = useRef<string | undefined>(undefined);
  const announced = useRef<string | undefined>(undefined);
  const queryClient = useQueryClient();
  const user = useUser();
  useEffect(() => {
    if (!batch) return;
    if (!batch.summary) {
      seenRunning.current = batch.id;
      return;
    }
    // A batch started on this screen counts as watched even when its first read already found it finished.
    if (announced.current === batch.id || (seenRunning.current !== batch.id && !startedHere)) return;
    announced.current = batch.id;
    const { successfulGenerations: made, failedGenerations: failed } = batch.summary;
    if (failed > 0) {
      toast.error(BATCH_MESSAGES.completeWithErrors, {
        description: `${made} of ${made + failed} photos made; ${failed} failed and ${failed === 1 ? 'its credit was' : 'their credits were'} refunded.`,
      });
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.userId) });
    } else {
      toast.success(BATCH_MESSAGES.complete, { description: `${made} ${made === 1 ? 'photo' : 'photos'} made.` });
    }
    notifyWorkDone(batch.summary.message);
    panelTitle.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    panelTitle.current?.focus({ preventScroll: true });
  }, [batch, startedHere, panelTitle, queryClient, user.userId]);
}

/**
 * "Download all": asks for the zip; while the server builds it the button says "Preparing…", and when the batch's
 * download turns ready (its live change, or its poll while the socket is down) the zip is asked for again and saved.
 */
function useBatchZip(batch: Batch | undefined) {
  // 'asking': the request is on its way; 'building': the server answered that it builds the zip.
  const [phase, setPhase] = useState<'idle' | 'asking' | 'building'>('idle');
  const queryClient = useQueryClient();
  const user = useUser();
  const status = batch?.download?.status;
  const batchId = batch?.id;

  const request = useCallback(async () => {
    if (!batchId) return;
    setPhase('asking');
    try {
      const zip = await requestBatchZip(batchId);
      if (zip.status === 'ready' && zip.url) {
        saveAttachment(zip.url);
        setPhase('idle');
        return;
      }
      // Read the batch again (it now says building) before following it to ready.
      await queryClient.invalidateQueries({ queryKey: batchQueryKey(user.userId, batchId) });
      setPhase('building');
    } catch (error) {
      setPhase('idle');
      toast.error('Download failed', { description: error instanceof Error ? error.message : 'Failed to download file' });
    }
  }, [batchId, queryClient, user.userId]);

  useEffect(() => {
    if (phase !== 'building' || status === 'building') return;
    if (status === 'ready') {
      void request();
      return;
    }
    setPhase('idle');
    toast.error('Download failed', { description: 'The zip could not be prepared. Please try again.' });
  }, [phase, status, request]);

  return { request, preparing: phase !== 'idle' };
}

export function RunningBatch({
  batch,
  startedHere,
  loading,
  retrying,
  onRetryFailed,
  onDismiss,
}: {
  batch: Batch | undefined;
  /** The batch was started (or retried) on this screen, in this visit. */
  startedHere: boolean;
  loading: boolean;
  retrying: boolean;
  onRetryFailed: (batch: Batch) => void;
  onDismiss: () => void;
}) {
  const title = useRef<HTMLHeadingElement>(null);
  useFinishedAnnouncement(batch, startedHere, title);
  const zip = useBatchZip(batch);
  const [permission, setPermission] = useState(notificationPermission);

  if (loading || !batch) {
    return (
      <Card>
        <CardContent className="flex justify-center py-10 text-brand-600">
          <Spinner className="h-6 w-6" label="Loading the batch…" />
        </CardContent>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle ref={title} tabIndex={-1} className="scroll-mt-20 outline-offset-2">
          {batch.summary ? 'Batch finished' : 'Batch running'}
        </CardTitle>
        <div className="flex gap-2">
          {!batch.summary && permission === 'default' && (
            <Button variant="outline" onClick={() => void askForNotifications().then(setPermission)}>
              Notify me when done
            </Button>
          )}
          {batch.summary && batch.summary.successfulGenerations > 0 && (
            <Button variant="outline" onClick={() => void zip.request()} busy={zip.preparing}>
              <Download className="h-4 w-4" aria-hidden="true" /> {zip.preparing ? 'Preparing…' : 'Download all (zip)'}
            </Button>
          )}
          {batch.summary && <PublishBatch batch={batch} />}
          {batch.summary && batch.summary.failedGenerations > 0 && (
            <Button variant="outline" onClick={() => onRetryFailed(batch)} busy={retrying}>
              <RotateCcw className="h-4 w-4" aria-hidden="true" /> Retry failed ({formatCredits(batch.summary.failedGenerations * (batch.credits_used / Math.max(1, batch.progress.total)))})
            </Button>
          )}
          {batch.summary && (
            <Button variant="ghost" onClick={onDismiss}>
              Close
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex items-start gap-4">
          {batch.model && (
            <figure className="w-20 shrink-0 text-center" data-testid="batch-model">
              <ModelPicture model={batch.model} className="aspect-[3/4] w-20 rounded-lg" />
              <figcaption className="mt-1 truncate text-xs text-slate-800">{batch.model.name}</figcaption>
            </figure>
          )}
          <BatchProgress batch={batch} />
        </div>
        <BatchPhotos photos={batch.photos} />
      </CardContent>
    </Card>
  );
}

function BatchProgress({ batch }: { batch: Batch }) {
  const { done, failed, total } = batch.progress;
  return (
    <div className="min-w-0 flex-1">
      <div
        role="progressbar"
        aria-label="Batch progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done + failed}
        aria-valuetext={`${done} done, ${failed} failed, ${total} in all`}
        className="flex h-3 overflow-hidden rounded-full bg-slate-200"
      >
        <span className="h-full bg-emerald-500 transition-all" style={{ width: `${(100 * done) / Math.max(1, total)}%` }} />
        <span className="h-full bg-red-500 transition-all" style={{ width: `${(100 * failed) / Math.max(1, total)}%` }} />
      </div>
      <p className="mt-2 text-sm text-slate-700" data-testid="batch-progress">
        {done} done · {failed} failed · {total} in all
      </p>
      {batch.summary && <p className="mt-1 text-sm font-medium text-slate-900">{batch.summary.message}</p>}
    </div>
  );
}
