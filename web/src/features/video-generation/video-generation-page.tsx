import {
  DEFAULT_VIDEO_ASPECT_RATIO,
  DEFAULT_VIDEO_DURATION,
  MOTION_PRESETS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_OUTPUT_COUNTS,
  VIDEO_PROGRESS_FULL_SECONDS,
  VIDEO_SOURCE_MAX_BYTES,
  videoTier,
} from '@contracts/catalog';
import { MOTION_PROMPT_MAX_LENGTH, videoResultId, type JobListItem } from '@contracts/video';
import { CANCELLED_BY_USER } from '@contracts/video-failures';
import { AlertTriangle, Download, Images, Link2, RefreshCw, Upload, Video, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { CostFooter } from '@/components/generation/cost-footer';
import { YourImagesPicker } from '@/components/generation/your-images-picker';
import { EngineNote, NotRenderedNote, PreviewBadge } from '@/components/generation/preview-badge';
import { ResultExtras } from '@/components/generation/result-extras';
import { ProductLinkImport, type ProductLinkImage } from '@/components/imports/product-link-import';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Label, Textarea } from '@/components/ui/field';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { downloadVideo } from '@/lib/downloads';
import { formatCredits, formatDateTime, formatNumber } from '@/lib/format';
import { checkPickedImage } from '@/lib/image-check';
import { useBuyCreditsAction } from '@/lib/buy-credits';
import { useChosenSource, type ChosenSource } from '@/lib/next-step';
import { useProfile } from '@/lib/profile';
import { expectedVideoPhrase, useExpectedVideoSeconds } from '@/lib/expected-wait';
import { useObjectUrl } from '@/lib/uploads';
import { useResultFocus } from '@/lib/result-focus';
import { useTierCost } from '@/features/prices';
import { useJobs } from './api';
import { JobProgressRow } from './job-progress';
import { MotionReadingNote } from './motion-reading-note';
import { useVideoJob, type VideoOrder, type VideoPhase } from './use-video-job';
import { VIDEO_MESSAGES } from './video-messages';

const MAX_MB = VIDEO_SOURCE_MAX_BYTES / 1024 / 1024;


/** m:ss */
export function formatElapsed(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Image to Video Generation (/studio/generate/video-generation): the form on the left, results and history right. */
export default function VideoGenerationPage() {
  const video = useVideoJob();
  // Only the click being sent locks the button: several videos may run at once, each with its own row below.
  const busy = video.phase.kind === 'starting';
  // The header names the default length's price; the form shows the chosen length's.
  const costPerVideo = useTierCost()(videoTier(DEFAULT_VIDEO_DURATION));
  useShownJob(video.show);
  const resultRef = useRef<HTMLDivElement>(null);
  const showResult = () => resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  // A started job is never missed: its progress card is brought into view and a toast says so, with a link back to it.
  const generate = async (order: VideoOrder) => {
    const jobId = await video.start(order);
    if (!jobId) return;
    showResult();
    toast.success(VIDEO_MESSAGES.started.title, {
      description: VIDEO_MESSAGES.started.description,
      action: { label: 'View progress', onClick: showResult },
    });
  };
  return (
    <div>
      <PageHeader
        title="Image to Video Generation"
        description={`Turn a product photo into a perfectly looping video. ${formatCredits(costPerVideo)} per video.`}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <VideoForm busy={busy} onGenerate={generate} />
        <div className="min-w-0 space-y-6">
          <div ref={resultRef} className="scroll-mt-20">
            <VideoResult phase={video.phase} onCheckStatus={() => void video.checkStatus()} onCancel={() => void video.cancel()} />
          </div>
          <JobHistory onShow={(job) => void video.show(job)} />
        </div>
      </div>
    </div>
  );
}

/** `?job=<id>` (the link of the "video is ready" toast): that job is shown in the Result panel once it is listed. */
function useShownJob(show: ReturnType<typeof useVideoJob>['show']) {
  const [params] = useSearchParams();
  const wanted = params.get('job');
  const job = useJobs().data?.find((item) => item.id === wanted);
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!job || shown.current === job.id) return;
    shown.current = job.id;
    void show(job);
  }, [job, show]);
}

function OptionGroup<T extends string | number>({
  legend,
  name,
  options,
  value,
  onChange,
  label,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  label: (value: T) => ReactNode;
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">{legend}</legend>
      <div className="grid grid-cols-3 gap-2">
        {options.map((option) => (
          <label
            key={option}
            className={cn(
              'flex cursor-pointer items-center justify-center rounded-lg border-2 px-2 py-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
              value === option ? 'border-brand-600 bg-brand-50 text-slate-900' : 'border-slate-200 text-slate-700 hover:border-slate-300',
            )}
          >
            <input type="radio" name={name} value={option} className="sr-only" checked={value === option} onChange={() => onChange(option)} />
            {label(option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function VideoForm({ busy, onGenerate }: { busy: boolean; onGenerate: (order: VideoOrder) => Promise<void> }) {
  const profile = useProfile();
  // Opened from a result's "Make a video": that image is already chosen, nothing to upload again.
  const handedOver = useChosenSource();
  const [sourceMode, setSourceMode] = useState<'upload' | 'url' | 'yours'>(handedOver ? 'yours' : 'upload');
  const [yours, setYours] = useState<ChosenSource | undefined>(handedOver);
  const [file, setFile] = useState<File>();
  const [imported, setImported] = useState<ProductLinkImage>();
  const [prompt, setPrompt] = useState('');
  const [duration, setDuration] = useState<number>(DEFAULT_VIDEO_DURATION);
  const [aspectRatio, setAspectRatio] = useState<string>(DEFAULT_VIDEO_ASPECT_RATIO);
  const [outputCount, setOutputCount] = useState<number>(VIDEO_OUTPUT_COUNTS[0]);
  const fileUrl = useObjectUrl(file);
  const ids = { file: useId(), prompt: useId() };
  const costPerVideo = useTierCost()(videoTier(duration));
  const cost = costPerVideo === undefined ? undefined : costPerVideo * outputCount;
  const credits = profile.data?.current_credits;
  const buyCredits = useBuyCreditsAction();

  const pickFile = async (picked: File | undefined) => {
    if (!picked) return;
    const problem = await checkPickedImage(picked, VIDEO_SOURCE_MAX_BYTES);
    if (problem) return void toast.error(problem.title, { description: problem.description });
    setFile(picked);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Checked before any call, so nothing is charged for a request that cannot run: an image, a motion prompt, enough credits.
    const image =
      sourceMode === 'upload'
        ? file
        : sourceMode === 'url'
          ? imported
          : yours && (yours.kind === 'generation' ? { generationId: yours.id } : { clothingItemId: yours.id });
    if (!image) return void toast.error(VIDEO_MESSAGES.imageRequired.title, { description: VIDEO_MESSAGES.imageRequired.description });
    if (!prompt.trim()) return void toast.error(VIDEO_MESSAGES.promptRequired.title, { description: VIDEO_MESSAGES.promptRequired.description });
    if (credits !== undefined && cost !== undefined && credits < cost) {
      return void toast.error(VIDEO_MESSAGES.insufficientCredits.title, { description: VIDEO_MESSAGES.insufficientCredits.description, action: buyCredits });
    }
    void onGenerate({ image, prompt: prompt.trim(), duration, aspectRatio, outputCount });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Video settings</CardTitle>
        <CardDescription>Upload a product photo or paste a product link, choose a motion, and get a seamless looping MP4.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="space-y-5" noValidate>
          <fieldset>
            <legend className="mb-1.5 block text-sm font-medium text-slate-800">Video source</legend>
            <div className="mb-3 grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1 text-sm sm:inline-grid" role="group" aria-label="Video source mode">
              {(
                [
                  ['upload', 'Upload', Upload],
                  ['yours', 'Your images', Images],
                  ['url', 'Product URL', Link2],
                ] as const
              ).map(([mode, label, Icon]) => (
                <button
                  key={mode}
                  type="button"
                  aria-pressed={sourceMode === mode}
                  onClick={() => setSourceMode(mode)}
                  className={cn(
                    // On a phone the three share the row: icon above the label, so no label is cut off.
                    'flex flex-col items-center justify-center gap-0.5 rounded-md px-1.5 py-1.5 text-xs font-medium sm:flex-row sm:gap-1.5 sm:px-3 sm:text-sm',
                    sourceMode === mode ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
                  )}
                >
                  <Icon className="h-4 w-4" aria-hidden="true" /> {label}
                </button>
              ))}
            </div>
            {sourceMode === 'upload' ? (
              <FileDropZone
                id={ids.file}
                fileName={file?.name}
                previewUrl={fileUrl}
                placeholder="Choose a product photo"
                hint={`PNG, JPG, JPEG or WEBP, under ${MAX_MB} MB`}
                ariaLabel="Upload a product image"
                onFile={pickFile}
              />
            ) : sourceMode === 'yours' ? (
              <YourImagesPicker value={yours} onChange={setYours} />
            ) : (
              <ProductLinkImport purpose="video" onImported={setImported} />
            )}
          </fieldset>

          <fieldset>
            <legend className="mb-1.5 block text-sm font-medium text-slate-800">Motion style</legend>
            <div className="mb-3 flex flex-wrap gap-2">
              {MOTION_PRESETS.map((preset) => (
                <Button
                  className="min-w-fit flex-1 basis-20"
                  key={preset}
                  variant={prompt === preset ? 'primary' : 'outline'}
                  aria-pressed={prompt === preset}
                  onClick={() => setPrompt(preset)}
                >
                  {preset}
                </Button>
              ))}
            </div>
            <Label htmlFor={ids.prompt}>Motion prompt</Label>
            <Textarea
              id={ids.prompt}
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
              placeholder="Choose a preset or describe the motion, e.g. a slow turn to the left and back"
              maxLength={MOTION_PROMPT_MAX_LENGTH}
              className="min-h-20"
            />
            <MotionReadingNote prompt={prompt} />
          </fieldset>

          <OptionGroup legend="Duration" name="duration" options={VIDEO_DURATIONS} value={duration as (typeof VIDEO_DURATIONS)[number]} onChange={setDuration} label={(value) => `${value} s`} />
          <OptionGroup legend="Aspect ratio" name="aspect-ratio" options={VIDEO_ASPECT_RATIOS} value={aspectRatio as (typeof VIDEO_ASPECT_RATIOS)[number]} onChange={setAspectRatio} label={(value) => value} />
          <OptionGroup legend="Number of videos" name="output-count" options={VIDEO_OUTPUT_COUNTS} value={outputCount as (typeof VIDEO_OUTPUT_COUNTS)[number]} onChange={setOutputCount} label={(value) => String(value)} />

          <CostFooter cost={cost} balance={credits} label="Generate Video" icon={Video} busy={busy} stacked />
        </form>
      </CardContent>
    </Card>
  );
}

/**
 * Seconds since `since`. The clock is read again as soon as `since` arrives (a job's start time is known only after
 * mount) and four times a second after that, so the shown whole second never lags the real one by more than 250 ms.
 */
function useElapsedSeconds(since: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [since]);
  return since === undefined ? 0 : Math.max(0, now - since) / 1000;
}

/**
 * Cancel, after a confirmation that says what comes back: every video no paid AI provider has started (on the local
 * engine, all of them).
 */
function CancelVideoButton({ jobId, onCancel }: { jobId: string; onCancel: () => void }) {
  const [open, setOpen] = useState(false);
  const job = useJobs().data?.find((item) => item.id === jobId);
  const refundable = job?.refundable_credits;
  const kept = job ? job.credits_charged - job.credits_refunded - (refundable ?? 0) : 0;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm">
          <X className="h-4 w-4" aria-hidden="true" /> Cancel
        </Button>
      </DialogTrigger>
      <DialogContent
        role="alertdialog"
        title="Cancel this video?"
        description={
          refundable === undefined
            ? 'The credits of every video that has not started at the AI service come back to your balance.'
            : `${formatNumber(refundable)} ${refundable === 1 ? 'credit comes' : 'credits come'} back to your balance.` +
              (kept > 0 ? ` ${formatNumber(kept)} already started at the AI service and ${kept === 1 ? 'is' : 'are'} not refunded.` : '')
        }
      >
        <div className="mt-6 flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline">Keep generating</Button>
          </DialogClose>
          <Button
            variant="destructive"
            onClick={() => {
              setOpen(false);
              onCancel();
            }}
          >
            Cancel video
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function VideoResult({ phase, onCheckStatus, onCancel }: { phase: VideoPhase; onCheckStatus: () => void; onCancel: () => void }) {
  const waiting = phase.kind === 'polling' || phase.kind === 'timed-out' ? phase : undefined;
  const elapsed = useElapsedSeconds(waiting?.startedAt);
  const fraction = Math.min(1, elapsed / VIDEO_PROGRESS_FULL_SECONDS);
  const typical = expectedVideoPhrase(useExpectedVideoSeconds());
  const titleId = useId();
  const panel = useResultFocus<HTMLDivElement>(
    phase.kind === 'starting' || phase.kind === 'polling',
    phase.kind === 'complete' || phase.kind === 'failed' ? `${phase.kind}:${phase.jobId ?? ''}` : undefined,
  );
  return (
    <Card ref={panel} tabIndex={-1} role="region" aria-labelledby={titleId} data-testid="result-panel" className="outline-offset-2">
      <CardHeader>
        <CardTitle id={titleId}>Result</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {phase.kind === 'starting' && <Spinner label={phase.attempt > 1 ? `Starting… (attempt ${phase.attempt})` : 'Starting…'} />}
        {waiting && (
          <div className="space-y-3" aria-live="polite">
            <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
              {phase.kind === 'polling' ? <Spinner className="h-4 w-4" label={null} /> : <AlertTriangle className="h-4 w-4 text-amber-600" aria-hidden="true" />}
              {phase.kind === 'polling' ? 'Generating your video…' : 'Still waiting for your video'}
            </p>
            <div className="flex items-baseline justify-between text-sm text-slate-700">
              <span>
                Elapsed <span data-testid="video-elapsed" className="font-mono font-semibold text-slate-900">{formatElapsed(elapsed)}</span>
              </span>
              <span data-testid="video-typical-time">{typical}</span>
            </div>
            <div
              role="progressbar"
              aria-label="Video generation progress"
              aria-valuemin={0}
              aria-valuemax={VIDEO_PROGRESS_FULL_SECONDS}
              aria-valuenow={Math.round(Math.min(elapsed, VIDEO_PROGRESS_FULL_SECONDS))}
              className="h-2 overflow-hidden rounded-full bg-slate-200"
            >
              <div className="h-full rounded-full bg-brand-600 transition-[width] duration-1000" style={{ width: `${fraction * 100}%` }} />
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" onClick={onCheckStatus}>
                <RefreshCw className="h-4 w-4" aria-hidden="true" /> Check Status
              </Button>
              <CancelVideoButton jobId={waiting.jobId} onCancel={onCancel} />
            </div>
          </div>
        )}
        {phase.kind === 'complete' &&
          phase.urls.signedUrls.map((url, index) => (
            <figure key={url} className="space-y-2">
              <video
                src={url}
                poster={phase.urls.thumbnailUrls[index]}
                loop
                muted
                playsInline
                autoPlay
                controls
                aria-label={`Generated video ${index + 1}`}
                className="mx-auto max-h-[32rem] w-full rounded-lg bg-slate-900 object-contain"
              />
              <Button variant="outline" size="sm" onClick={() => void downloadVideo(phase.jobId, index)}>
                <Download className="h-4 w-4" aria-hidden="true" /> Download{phase.urls.signedUrls.length > 1 ? ` video ${index + 1}` : ''}
              </Button>
              {phase.urls.descriptions[index] ? (
                <figcaption data-testid="video-description" className="text-sm text-slate-700">
                  {phase.urls.descriptions[index]}
                </figcaption>
              ) : null}
              <ResultExtras generationId={videoResultId(phase.jobId, index)} />
            </figure>
          ))}
        {/* One note for the whole result, however many videos it has: they were all made by the same engine. */}
        {phase.kind === 'complete' && <EngineNote engine={phase.urls.engine} />}
        {phase.kind === 'complete' && <NotRenderedNote items={phase.urls.notRendered} />}
        {phase.kind === 'failed' && phase.message === CANCELLED_BY_USER && (
          <div role="status" className="flex items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
            <Badge tone="neutral">Cancelled</Badge>
            <p>You cancelled this video. Its credits were refunded.</p>
          </div>
        )}
        {phase.kind === 'failed' && phase.message !== CANCELLED_BY_USER && (
          <div role="alert" className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <p>{phase.message}</p>
          </div>
        )}
        {phase.kind === 'idle' && (
          <div className="flex flex-col items-center gap-3 rounded-lg border-2 border-dashed border-slate-200 px-6 py-12 text-center text-slate-600">
            <Video className="h-10 w-10 text-slate-400" aria-hidden="true" />
            <p>Your looping video appears here: {typical}.</p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const STATUS_TONES = { generating: 'warning', complete: 'success', failed: 'danger', cancelled: 'neutral' } as const;

/** A job the seller cancelled is shown as cancelled, not failed (it is stored as failed with CANCELLED_BY_USER). */
const shownStatus = (job: Pick<JobListItem, 'status' | 'error_message'>) =>
  job.status === 'failed' && job.error_message === CANCELLED_BY_USER ? 'cancelled' : job.status;

function JobHistory({ onShow }: { onShow: (job: JobListItem) => void }) {
  const jobs = useJobs();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent videos</CardTitle>
        <CardDescription>Your newest 10 video jobs.</CardDescription>
      </CardHeader>
      <CardContent>
        {jobs.isPending ? (
          <Spinner label="Loading your videos…" />
        ) : jobs.isError ? (
          <p className="text-sm text-slate-700">Failed to load video jobs</p>
        ) : jobs.data.length === 0 ? (
          <p className="text-sm text-slate-700">No videos yet. Generate your first one.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Recent video jobs">
            {jobs.data.map((job) => (
              <li key={job.id} className="flex items-center gap-3 py-3">
                {job.thumbnail_signed_url ? (
                  <img src={job.thumbnail_signed_url} alt="" className="h-14 w-14 shrink-0 rounded bg-slate-100 object-cover" />
                ) : (
                  <div className="flex h-14 w-14 shrink-0 items-center justify-center rounded bg-slate-100">
                    <Video className="h-5 w-5 text-slate-400" aria-hidden="true" />
                  </div>
                )}
                <div className="min-w-0 flex-1">
                  <p className="line-clamp-2 break-words text-sm font-medium text-slate-900">{job.prompt}</p>
                  <p className="text-xs text-slate-600">
                    {job.duration} s · {job.aspect_ratio} · {job.output_count} {job.output_count === 1 ? 'video' : 'videos'} · {formatDateTime(job.created_at)}
                  </p>
                  {job.status === 'complete' && job.engine && (
                    <p className="text-xs text-slate-600" data-testid="job-engine">
                      {job.engine.name} <PreviewBadge aiModel={job.engine.model} />
                    </p>
                  )}
                  {job.status === 'failed' && job.error_message && <p className="truncate text-xs text-red-700">{job.error_message}</p>}
                  {job.status === 'generating' && <JobProgressRow jobId={job.id} createdAt={job.created_at} />}
                </div>
                <Badge tone={STATUS_TONES[shownStatus(job)]}>{shownStatus(job)}</Badge>
                <Button variant="ghost" size="sm" onClick={() => onShow(job)} aria-label={`Show video job ${job.id.slice(0, 8)}`}>
                  {job.status === 'generating' ? 'Track' : 'View'}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
