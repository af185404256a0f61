import { VIDEO_PROGRESS_FULL_SECONDS } from '@contracts/catalog';
import { useEffect, useState } from 'react';

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** One running job's own progress: its elapsed time and the bar that fills over VIDEO_PROGRESS_FULL_SECONDS. */
export function JobProgressRow({ jobId, createdAt }: { jobId: string; createdAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const elapsed = Math.max(0, (now - Date.parse(createdAt)) / 1000);
  const fraction = Math.min(1, elapsed / VIDEO_PROGRESS_FULL_SECONDS);
  return (
    <div className="mt-1 flex items-center gap-2" data-testid="job-progress">
      <div
        role="progressbar"
        aria-label={`Progress of video job ${jobId.slice(0, 8)}`}
        aria-valuemin={0}
        aria-valuemax={VIDEO_PROGRESS_FULL_SECONDS}
        aria-valuenow={Math.round(Math.min(elapsed, VIDEO_PROGRESS_FULL_SECONDS))}
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width] duration-1000" style={{ width: `${fraction * 100}%` }} />
      </div>
      <span className="font-mono text-xs text-slate-700">{clock(elapsed)}</span>
    </div>
  );
}
