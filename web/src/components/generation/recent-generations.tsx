import { SHORT_LIST_LIMIT } from '@contracts/catalog';
import type { Generation } from '@contracts/generations';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { useGenerations } from '@/lib/generations';
import { GenerationCredits, GenerationStatusBadge, generationTypeLabel } from './generation-labels';

const COLUMNS: Column<Generation>[] = [
  { header: 'Date', cell: (generation) => formatDateTime(generation.created_at), className: 'text-slate-700' },
  { header: 'Type', cell: generationTypeLabel, className: 'text-slate-900' },
  { header: 'Status', cell: (generation) => <GenerationStatusBadge status={generation.status} errorMessage={generation.error_message} /> },
  { header: 'Credits', cell: (generation) => <GenerationCredits generation={generation} />, align: 'right' },
];

/** The usage page's newest 10 generations. */
export function RecentGenerations() {
  const generations = useGenerations({ limit: SHORT_LIST_LIMIT });
  if (generations.isPending) return <Spinner label="Loading generations…" />;
  if (generations.isError) return <p className="text-slate-700">Failed to load generations</p>;
  if (generations.data.length === 0) {
    return <p className="text-slate-700">No generations yet. Your images and videos will be listed here once you create them.</p>;
  }
  return (
    <DataTable
      rows={generations.data}
      columns={COLUMNS}
      rowKey={(generation) => generation.id}
      rowTestId="recent-generation-row"
      caption="Recent generations, newest first"
      scrollLabel="Recent generations"
      className="min-w-[32rem]"
      stacked={{ label: 'Recent generations, newest first' }}
    />
  );
}
