// One place, app-wide, that says when long work ends while the user is on another screen: a video job or a batch
// that was running and has finished gets a toast with a link to it. It follows the same job and batch lists the
// realtime pushes reload (and that are polled while the socket is down); the screen of the work says it itself. With
// the user's leave (asked on the batch screen), a browser notification says it too while the tab is hidden.
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { BATCH_MESSAGES } from '@contracts/batch';
import { useBatches } from '@/features/batch-generation';
import { useJobs } from '@/features/video-generation';
import { notifyWorkDone } from '@/lib/notify';
import { paths, videoJobPath } from '@/lib/paths';

/** Calls `onEnded` for each item seen running in this tab that is now ended. */
function useEnded<T extends { id: string }>(items: T[] | undefined, running: (item: T) => boolean, onEnded: (item: T) => void) {
  const seen = useRef(new Map<string, boolean>());
  const callback = useRef(onEnded);
  callback.current = onEnded;
  useEffect(() => {
    for (const item of items ?? []) {
      const wasRunning = seen.current.get(item.id);
      const isRunning = running(item);
      if (wasRunning && !isRunning) callback.current(item);
      seen.current.set(item.id, isRunning);
    }
    // `running` is a pure test of the item.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items]);
}

export default function FinishedWorkToasts() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const here = useRef(pathname);
  here.current = pathname;

  useEnded(
    useJobs().data,
    (job) => job.status === 'generating',
    (job) => {
      const title = job.status === 'complete' ? 'Your video is ready' : 'Your video failed';
      notifyWorkDone(title);
      if (here.current === paths.videoGeneration || here.current === paths.generate) return;
      const show = () => navigate(videoJobPath(job.id));
      const options = { description: job.prompt, action: { label: 'View video', onClick: show }, duration: 15_000 };
      if (job.status === 'complete') toast.success(title, options);
      else toast.error(title, { ...options, description: job.error_message ?? job.prompt });
    },
  );

  useEnded(
    useBatches().data,
    (batch) => !batch.summary,
    (batch) => {
      const failed = (batch.summary?.failedGenerations ?? batch.progress.failed) > 0;
      // 'Batch Generation Complete', or '… with Errors' in the destructive style.
      const title = failed ? BATCH_MESSAGES.completeWithErrors : BATCH_MESSAGES.complete;
      const description = batch.summary?.message ?? `${batch.progress.done} of ${batch.progress.total} photos`;
      notifyWorkDone(title);
      if (here.current === paths.batchGeneration) return;
      (failed ? toast.error : toast.success)(title, {
        description,
        action: { label: 'View batch', onClick: () => navigate(paths.batchGeneration) },
        duration: 15_000,
      });
    },
  );
  return null;
}
