import type { Generation, GenerationType } from '@contracts/generations';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChevronDown, Download, ExternalLink, Eye, History, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import {
  batchEntryLabel,
  GenerationCredits,
  GenerationStatusBadge,
  generationTypeLabel,
  modelDisplayName,
  productLabel,
} from '@/components/generation/generation-labels';
import { NextStepActions } from '@/components/generation/next-step-actions';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { downloadFile, generationFileName } from '@/lib/downloads';
import { formatDateTime } from '@/lib/format';
import { useGenerations } from '@/lib/generations';
import { useClothingItems } from '@/lib/clothing-items';

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
export default function GenerationsPage() {
  const [tab, setTab] = useState<Tab>('all');
  const generations = useGenerations({ type: tab === 'all' ? undefined : tab });
  const [viewing, setViewing] = useState<Generation>();
  const library = useClothingItems();
  const itemName = (generation: Generation) => {
    const id = generation.params.clothingItemId;
    return typeof id === 'string' ? library.data?.find((item) => item.id === id)?.name : undefined;
  };

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
            rows={generations.data}
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

      <Dialog open={viewing !== undefined} onOpenChange={(open) => !open && setViewing(undefined)}>
        {viewing?.result_url && (
          <DialogContent title={`${generationTypeLabel(viewing)} · ${formatDateTime(viewing.created_at)}`} className="max-w-3xl">
            {viewing.result_content_type === 'video/mp4' ? (
              <video src={viewing.result_url} controls loop autoPlay muted className="mt-4 max-h-[75vh] w-full rounded-lg bg-slate-900" />
            ) : (
              <img src={viewing.result_url} alt={`${generationTypeLabel(viewing)} result`} className="mt-4 max-h-[75vh] w-full rounded-lg bg-slate-100 object-contain" />
            )}
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
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
          </span>
        </span>
      ),
    },
    {
      header: 'Model',
      cell: (generation) => (
        <>
          <span className="block text-slate-900" data-testid="generation-model">{modelDisplayName(generation.ai_model)}</span>
          {generation.model && <span className="block text-xs text-slate-600" data-testid="generation-saved-model">Model: {generation.model.name}</span>}
          <span className="block text-xs text-slate-600">{productLabel(generation, itemName(generation))}</span>
        </>
      ),
    },
    { header: 'Status', cell: (generation) => <GenerationStatusBadge status={generation.status} /> },
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
            <GenerationStatusBadge status={generation.status} />
          </p>
          {batchEntryLabel(generation) && <p className="text-xs text-slate-600">{batchEntryLabel(generation)}</p>}
          <p className="text-sm text-slate-700">
            {modelDisplayName(generation.ai_model)} · {productLabel(generation, itemName(generation))}
            {generation.model && ` · Model: ${generation.model.name}`}
          </p>
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

function RowActions({ generation, onView }: { generation: Generation; onView: () => void }) {
  const url = generation.result_url;
  if (generation.status !== 'complete' || !url) return null;
  return (
    <div className="flex flex-wrap gap-2 md:justify-end">
      <Button variant="outline" size="sm" onClick={onView}>
        <Eye className="h-4 w-4" aria-hidden="true" /> View
      </Button>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <Button variant="outline" size="sm">
            <Download className="h-4 w-4" aria-hidden="true" /> Download <ChevronDown className="h-3 w-3" aria-hidden="true" />
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className="z-40 min-w-48 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg">
            <DropdownMenu.Item className={itemClass} onSelect={() => void downloadFile(url, generationFileName(generation))}>
              <Download className="h-4 w-4" aria-hidden="true" /> Download File
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => window.open(url, '_blank', 'noopener,noreferrer')}>
              <ExternalLink className="h-4 w-4" aria-hidden="true" /> View in New Tab
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <NextStepActions generation={generation} compact />
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
