import type { Generation, GenerationType } from '@contracts/generations';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Download, ExternalLink, Eye, History, MoreHorizontal, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  batchEntryLabel,
  GenerationCredits,
  GenerationStatusBadge,
  generationTypeLabel,
  modelDisplayName,
  productLabel,
  resultShapeLabel,
} from '@/components/generation/generation-labels';
import { leadsOn, NEXT_STEPS } from '@/components/generation/next-step-actions';
import { ComplianceSummary } from '@/components/generation/compliance-summary';
import { CutoutReviewNote, RefineCutout } from '@/components/generation/refine-cutout';
import { PreviewBadge, PreviewNote, ResultNotes } from '@/components/generation/preview-badge';
import { PageHeader } from '@/components/page-header';
import { ResultExtras } from '@/components/generation/result-extras';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { downloadFile, downloadVideo, generationFileName, videoOfGeneration } from '@/lib/downloads';
import { formatDateTime, shortId } from '@/lib/format';
import { useGenerations } from '@/lib/generations';
import { useClothingItems } from '@/lib/clothing-items';
import { BATCH_PARAM, sourceParam } from '@/lib/next-step';
import { paths } from '@/lib/paths';

type Tab = 'all' | GenerationType;
/** The name of the clothing item a generation was made from, when the library has it. */
type ItemName = (generation: Generation) => string | undefined;
const TABS: { value: Tab; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'image', label: 'Images' },
  { value: 'video', label: 'Videos' },
  { value: 'batch', label: 'Batch' },
];

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900';

/** Generations History (/studio/generations): the newest 100, by type, with View and Download. */
export default function HistoryPage() {
  const [tab, setTab] = useState<Tab>('all');
  const generations = useGenerations({ type: tab === 'all' ? undefined : tab });
  // The row shown, read from the list by id: a refined packshot shows its new render and report.
  const [viewingId, setViewingId] = useState<string>();
  const viewing = generations.data?.find((row) => row.id === viewingId);
  const setViewing = (generation: Generation | undefined) => setViewingId(generation?.id);
  const library = useClothingItems();
  const itemName = (generation: Generation) => {
    const id = generation.params.clothingItemId;
    return typeof id === 'string' ? library.data?.find((item) => item.id === id)?.name : undefined;
  };

  // Batches with failed photos: their heading offers Retry failed.
  const failedBatches = new Set((generations.data ?? []).filter((row) => row.status === 'failed').map(batchIdOf).filter((id) => id !== undefined));

  return (
    <div className="space-y-6">
      <PageHeader
        title="Generations History"
        description="Every image, video and batch you created, newest first."
        actions={
          <Button variant="outline" onClick={() => void generations.refetch()} busy={generations.isFetching && !generations.isPending}>
            <RefreshCw className="h-4 w-4" aria-hidden="true" /> Refresh
          </Button>
        }
      />
      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)}>
        <TabsList aria-label="Generation type">
          {TABS.map((entry) => (
            <TabsTrigger key={entry.value} value={entry.value}>
              {entry.label}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>

      <Card>
        {generations.isPending ? (
          <div className="flex justify-center py-16 text-brand-600">
            <Spinner className="h-8 w-8" label="Loading generations…" />
          </div>
        ) : generations.isError ? (
          <Empty title="Failed to load generations" text="Your history could not be loaded right now." />
        ) : generations.data.length === 0 ? (
          <Empty title="No generations yet" text="Images, edits, upscales, videos and batch photos you create appear here." />
        ) : (
          <DataTable
            rows={withBatchesTogether(generations.data)}
            groupOf={(generation) => batchGroup(generation, failedBatches)}
            columns={historyColumns(itemName, setViewing)}
            rowKey={(generation) => generation.id}
            rowTestId="generation-row"
            caption="Generations, newest first"
            scrollLabel="Generations"
            className="min-w-[52rem]"
            spacing="boxed"
            cards={{
              label: 'Generations, newest first',
              testId: 'generation-card',
              className: 'space-y-3 p-4',
              render: (generation) => <GenerationCard generation={generation} itemName={itemName} onView={setViewing} />,
            }}
          />
        )}
      </Card>

      <Dialog open={viewingId !== undefined} onOpenChange={(open) => !open && setViewing(undefined)}>
        {viewing?.result_url && (
          <DialogContent title={`${generationTypeLabel(viewing)} · ${formatDateTime(viewing.created_at)}`} className="max-w-3xl">
            {viewing.result_content_type === 'video/mp4' ? (
              <video src={viewing.result_url} controls loop autoPlay muted className="mt-4 max-h-[75vh] w-full rounded-lg bg-slate-900" />
            ) : (
              <img src={viewing.result_url} alt={`${generationTypeLabel(viewing)} result`} className="mt-4 max-h-[75vh] w-full rounded-lg bg-slate-100 object-contain" />
            )}
            <div className="mt-3">
              <PreviewNote generation={viewing} />
              <CutoutReviewNote generation={viewing} />
              <ComplianceSummary generation={viewing} />
              <RefineCutout generation={viewing} />
            </div>
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
}

const batchIdOf = (generation: Generation) =>
  generation.operation === 'batch' && typeof generation.params.batchId === 'string' ? generation.params.batchId : undefined;

/** A batch's photos, one after another where the batch's newest photo stands, in the order the batch made them. */
function withBatchesTogether(rows: readonly Generation[]): Generation[] {
  const photos = new Map<string, Generation[]>();
  for (const row of rows) {
    const batchId = batchIdOf(row);
    if (batchId) photos.set(batchId, [...(photos.get(batchId) ?? []), row]);
  }
  const placed = new Set<string>();
  return rows.flatMap((row) => {
    const batchId = batchIdOf(row);
    if (!batchId) return [row];
    if (placed.has(batchId)) return [];
    placed.add(batchId);
    return [...photos.get(batchId)!].sort((a, b) => a.id.localeCompare(b.id));
  });
}

/**
 * The heading of a batch's photos: 'Batch · Nov 25, 2026, 8:10 AM · 1a2b3c4d' (when it ran, its id), with Retry failed
 * (the batch on its screen, where the failed photos can be made again) when some failed.
 */
function batchGroup(generation: Generation, failedBatches: ReadonlySet<string>) {
  const batchId = batchIdOf(generation);
  if (!batchId) return undefined;
  return {
    key: batchId,
    label: (
      <span className="flex flex-wrap items-center justify-between gap-2">
        <span>
          Batch · {formatDateTime(generation.created_at)} · {shortId(batchId)}
        </span>
        {failedBatches.has(batchId) && (
          <Link to={`${paths.batchGeneration}?${BATCH_PARAM}=${encodeURIComponent(batchId)}`} className="normal-case tracking-normal text-brand-700 hover:underline">
            Retry failed
          </Link>
        )}
      </span>
    ),
  };
}

/** The history table's columns; narrow screens show a GenerationCard per row instead. */
function historyColumns(itemName: ItemName, onView: (generation: Generation) => void): Column<Generation>[] {
  return [
    {
      header: 'Type',
      cell: (generation) => (
        <span className="flex items-center gap-3">
          {generation.thumbnail_url ? (
            <img src={generation.thumbnail_url} alt="" className="h-12 w-9 rounded bg-slate-100 object-cover" loading="lazy" />
          ) : (
            <span className="h-12 w-9 rounded bg-slate-100" aria-hidden="true" />
          )}
          <span>
            <span className="block font-medium text-slate-900">{generationTypeLabel(generation)}</span>
            {batchEntryLabel(generation) && <span className="block text-xs text-slate-600">{batchEntryLabel(generation)}</span>}
            {resultShapeLabel(generation) && <span className="block text-xs text-slate-600" data-testid="generation-shape">{resultShapeLabel(generation)}</span>}
          </span>
        </span>
      ),
    },
    {
      header: 'Model',
      cell: (generation) => (
        <>
          <span className="flex items-center gap-2 text-slate-900" data-testid="generation-model">
            {modelDisplayName(generation.ai_model)} <PreviewBadge aiModel={generation.ai_model} />
          </span>
          {generation.model && <span className="block text-xs text-slate-600" data-testid="generation-saved-model">Model: {generation.model.name}</span>}
          <span className="block text-xs text-slate-600">{productLabel(generation, itemName(generation))}</span>
          <ResultNotes generation={generation} />
        </>
      ),
    },
    { header: 'Status', cell: (generation) => <GenerationStatusBadge status={generation.status} errorMessage={generation.error_message} /> },
    { header: 'Credits', cell: (generation) => <GenerationCredits generation={generation} />, align: 'right' },
    {
      header: 'Error',
      cell: (generation) => (
        <span className="line-clamp-3" title={generation.error_message ?? undefined}>
          {generation.error_message ?? ''}
        </span>
      ),
      className: 'max-w-xs text-red-700',
    },
    { header: 'Date', cell: (generation) => formatDateTime(generation.created_at), className: 'whitespace-nowrap text-slate-700' },
    { header: <span className="sr-only">Actions</span>, cell: (generation) => <RowActions generation={generation} onView={() => onView(generation)} /> },
  ];
}

function GenerationCard({ generation, itemName, onView }: { generation: Generation; itemName: ItemName; onView: (generation: Generation) => void }) {
  return (
    <>
      <div className="flex items-start gap-3">
        {generation.thumbnail_url ? (
          <img src={generation.thumbnail_url} alt="" className="h-16 w-12 shrink-0 rounded bg-slate-100 object-cover" loading="lazy" />
        ) : (
          <span className="h-16 w-12 shrink-0 rounded bg-slate-100" aria-hidden="true" />
        )}
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-slate-900">{generationTypeLabel(generation)}</span>
            <GenerationStatusBadge status={generation.status} errorMessage={generation.error_message} />
            <PreviewBadge aiModel={generation.ai_model} />
          </p>
          {batchEntryLabel(generation) && <p className="text-xs text-slate-600">{batchEntryLabel(generation)}</p>}
          {resultShapeLabel(generation) && <p className="text-xs text-slate-600" data-testid="generation-shape">{resultShapeLabel(generation)}</p>}
          <p className="text-sm text-slate-700">
            {modelDisplayName(generation.ai_model)} · {productLabel(generation, itemName(generation))}
            {generation.model && ` · Model: ${generation.model.name}`}
          </p>
          <ResultNotes generation={generation} className="block text-sm text-amber-800" />
          <p className="text-sm text-slate-700">
            Credits: <GenerationCredits generation={generation} /> · {formatDateTime(generation.created_at)}
          </p>
          {generation.error_message && <p className="mt-1 break-words text-sm text-red-700">{generation.error_message}</p>}
        </div>
      </div>
      <RowActions generation={generation} onView={() => onView(generation)} />
    </>
  );
}

/** A row's actions, compact: View, and one menu with the downloads and what the image leads to. */
function RowActions({ generation, onView }: { generation: Generation; onView: () => void }) {
  const url = generation.result_url;
  if (generation.status !== 'complete' || !url) return null;
  const query = sourceParam({ kind: 'generation', id: generation.id });
  const video = videoOfGeneration(generation);
  const download = () => void (video ? downloadVideo(video.jobId, video.index) : downloadFile(url, generationFileName(generation)));
  return (
    <div className="flex flex-wrap gap-2 md:justify-end">
      <Button variant="outline" size="sm" onClick={onView}>
        <Eye className="h-4 w-4" aria-hidden="true" /> View
      </Button>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <Button variant="outline" size="sm" aria-label="More actions">
            <MoreHorizontal className="h-4 w-4" aria-hidden="true" />
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className="z-40 min-w-48 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg">
            <DropdownMenu.Item className={itemClass} onSelect={download}>
              <Download className="h-4 w-4" aria-hidden="true" /> Download File
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => window.open(url, '_blank', 'noopener,noreferrer')}>
              <ExternalLink className="h-4 w-4" aria-hidden="true" /> View in New Tab
            </DropdownMenu.Item>
            {leadsOn(generation) && <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />}
            {leadsOn(generation) &&
              NEXT_STEPS.map(({ path, label, Icon }) => (
                <DropdownMenu.Item key={path} asChild className={itemClass}>
                  <Link to={`${path}?${query}`}>
                    <Icon className="h-4 w-4" aria-hidden="true" /> {label}
                  </Link>
                </DropdownMenu.Item>
              ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ResultExtras generationId={generation.id} title={generation.title} published={generation.published ?? []} compact />
    </div>
  );
}

function Empty({ title, text }: { title: string; text: string }) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50">
        <History className="h-7 w-7 text-brand-600" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <p className="max-w-md text-slate-700">{text}</p>
    </div>
  );
}
