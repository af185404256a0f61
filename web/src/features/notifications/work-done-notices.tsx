// Long work ends while the user is elsewhere: when a batch or a video job the user started finishes, every signed-in
// screen other than the one following it shows a toast that links to the result, and, if the user allowed it from a
// batch screen, a browser notification fires while the tab is hidden. Rendered once by the signed-in frame.
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { useBatches } from '@/features/batch-generation';
import { useJobs } from '@/features/video-generation';
import { notifyWorkDone } from '@/lib/notify';
import { paths } from '@/lib/paths';

/**
 * Calls `onEnded` for each id that was running at an earlier read and has ended at this one; the first read only
 * records what runs, so work that ended before the screen opened is never announced.
 */
function useEndedWork<T>(items: T[] | undefined, idOf: (item: T) => string, running: (item: T) => boolean, onEnded: (item: T) => void) {
  const seen = useRef<Set<string> | undefined>(undefined);
  const handler = useRef(onEnded);
  handler.current = onEnded;
  useEffect(() => {
    if (!items) return;
    const previous = seen.current;
    seen.current = new Set(items.filter(running).map(idOf));
    if (!previous) return;
    for (const item of items) if (previous.has(idOf(item)) && !running(item)) handler.current(item);
    // idOf and running are pure functions of the item.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items]);
}

export function WorkDoneNotices() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const batches = useBatches();
  const jobs = useJobs();

  useEndedWork(
    batches.data,
    (batch) => batch.id,
    (batch) => !batch.summary,
    (batch) => {
      if (!batch.summary) return;
      notifyWorkDone(batch.summary.message);
      // The batch screen announces its own batch.
      if (pathname === paths.batchGeneration) return;
      const failed = batch.summary.failedGenerations > 0;
      (failed ? toast.error : toast.success)(failed ? 'Batch Generation Complete with Errors' : 'Batch Generation Complete', {
        description: batch.summary.message,
        action: { label: 'View', onClick: () => navigate(paths.batchGeneration) },
      });
    },
  );
  useEndedWork(
    jobs.data,
    (job) => job.id,
    (job) => job.status === 'generating',
    (job) => {
      const done = job.status === 'complete';
      notifyWorkDone(done ? 'Your video is ready.' : 'Your video could not be made. Your credits were refunded.');
      if (pathname === paths.videoGeneration) return;
      (done ? toast.success : toast.error)(done ? 'Video ready' : 'Video failed', {
        description: done ? 'Your video is ready.' : (job.error_message ?? 'Failed to generate video. Please try again.'),
        action: { label: 'View', onClick: () => navigate(paths.videoGeneration) },
      });
    },
  );
  return null;
}
