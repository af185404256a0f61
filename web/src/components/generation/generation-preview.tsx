import type { Generation } from '@contracts/generations';
import { AlertTriangle, Download, ImageIcon } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { downloadFile, generationFileName } from '@/lib/downloads';
import { useResultFocus } from '@/lib/result-focus';
import { aboutDuration } from '@/lib/expected-wait';
import { modelDisplayName } from './generation-labels';
import { NextStepActions } from './next-step-actions';
import { ComplianceSummary } from './compliance-summary';
import { CutoutReviewNote, RefineCutout } from './refine-cutout';
import { PreviewBadge, PreviewNote } from './preview-badge';
import { ResultExtras } from './result-extras';

/** Work under way before the generation exists (uploading the image, sending the request). */
export interface PendingStep {
  label: string;
  /** 0..1 when known (upload progress). */
  fraction?: number;
}

interface GenerationPreviewProps {
  title: string;
  /** The generation being followed, once started. */
  generation?: Generation;
  pending?: PendingStep;
  /** What is shown before there is a result: the chosen image. */
  original?: { url: string; alt: string };
  empty: ReactNode;
  /** The stage's measured median seconds for this work (config.json), when it has one: the bar fills over it. */
  expectedSeconds?: number;
}

/** The right-hand column of the generation screens: progress while working, then the result with Download. */
export function GenerationPreview({ title, generation, pending, original, empty, expectedSeconds }: GenerationPreviewProps) {
  const processing = pending ?? (generation?.status === 'processing' ? { label: 'Processing…' } : undefined);
  const titleId = useId();
  const panel = useResultFocus<HTMLDivElement>(processing !== undefined, generation && `${generation.status}:${generation.id}`);
  return (
    <Card ref={panel} tabIndex={-1} role="region" aria-labelledby={titleId} data-testid="result-panel" className="outline-offset-2 lg:sticky lg:top-20">
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
        {generation?.status === 'complete' && generation.width && generation.height && (
          <CardDescription>
            {generation.width}×{generation.height} · {modelDisplayName(generation.ai_model)} <PreviewBadge aiModel={generation.ai_model} />
            {generation.model && <span data-testid="result-model"> · Model: {generation.model.name}</span>}
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {processing ? (
          <Progress step={processing} since={generation?.created_at} expectedSeconds={expectedSeconds} />
        ) : generation?.status === 'complete' && generation.result_url ? (
          <Result generation={generation} />
        ) : generation?.status === 'failed' ? (
          <div role="alert" className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <p>{generation.error_message ?? 'The generation failed. Your credits were refunded.'}</p>
          </div>
        ) : null}
        {!processing && generation?.status !== 'complete' &&
          (original ? (
            <figure>
              <img src={original.url} alt={original.alt} className="mx-auto max-h-[32rem] rounded-lg bg-slate-100 object-contain" />
              <figcaption className="mt-2 text-center text-sm text-slate-600">Original</figcaption>
            </figure>
          ) : (
            <div className="flex flex-col items-center gap-3 rounded-lg border-2 border-dashed border-slate-200 px-6 py-16 text-center text-slate-600">
              <ImageIcon className="h-10 w-10 text-slate-400" aria-hidden="true" />
              {empty}
            </div>
          ))}
      </CardContent>
    </Card>
  );
}

function Result({ generation }: { generation: Generation }) {
  const [downloading, setDownloading] = useState(false);
  const onDownload = async () => {
    setDownloading(true);
    await downloadFile(generation.result_url!, generationFileName(generation));
    setDownloading(false);
  };
  return (
    <figure className="space-y-3">
      <img
        src={generation.result_url!}
        alt="Generated result"
        data-testid="generation-result"
        className="mx-auto max-h-[36rem] rounded-lg bg-slate-100 object-contain"
      />
      <figcaption className="flex flex-col items-center gap-3">
        <Button onClick={() => void onDownload()} busy={downloading}>
          <Download className="h-4 w-4" aria-hidden="true" /> Download
        </Button>
        <PreviewNote generation={generation} />
        <CutoutReviewNote generation={generation} />
        <ComplianceSummary generation={generation} />
        <RefineCutout generation={generation} />
        <NextStepActions generation={generation} />
        <ResultExtras generationId={generation.id} title={generation.title} published={generation.published ?? []} />
      </figcaption>
    </figure>
  );
}

/** An indeterminate bar (or the upload's fraction) with the time elapsed. */
/** How far the bar fills on the expected time alone: it never claims to be done before the result is. */
const EXPECTED_FILL_MAX = 0.95;

/**
 * The work's progress: an upload's measured fraction; else, with the stage's measured median for the work, the
 * elapsed time against it ("usually ready in about 40 seconds"), as the video screen shows it; else a pulsing bar.
 */
function Progress({ step, since, expectedSeconds }: { step: PendingStep; since?: string; expectedSeconds?: number }) {
  const [started] = useState(() => (since ? Date.parse(since) : Date.now()));
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.floor((now - started) / 1000));
  const expected = step.fraction === undefined && expectedSeconds !== undefined ? expectedSeconds : undefined;
  const fraction = step.fraction ?? (expected === undefined ? undefined : Math.min(EXPECTED_FILL_MAX, seconds / expected));
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100);
  return (
    <div className="space-y-3 py-10 text-center" role="status" aria-live="polite">
      <Spinner className="mx-auto h-8 w-8 text-brand-600" label={null} />
      <p className="font-medium text-slate-900">
        {step.label}
        {step.fraction !== undefined && ` ${percent}%`}
      </p>
      <div
        className="mx-auto h-2 w-full max-w-xs overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={step.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div
          className={percent === undefined ? 'h-full w-full animate-pulse rounded-full bg-brand-500/70' : 'h-full rounded-full bg-brand-600 transition-[width]'}
          style={percent === undefined ? undefined : { width: `${percent}%` }}
        />
      </div>
      <p className="text-sm text-slate-600">
        <span data-testid="work-elapsed">
          {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')} elapsed
        </span>
        {expected !== undefined && <span data-testid="work-expected"> · usually ready in {aboutDuration(expected)}</span>}
      </p>
    </div>
  );
}
