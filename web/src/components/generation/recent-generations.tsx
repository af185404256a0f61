import { SHORT_LIST_LIMIT } from '@contracts/catalog';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { useGenerations } from '@/lib/generations';
import { GenerationCredits, GenerationStatusBadge, generationTypeLabel } from './generation-labels';

/** The usage page's newest 10 generations. */
export function RecentGenerations() {
  const generations = useGenerations({ limit: SHORT_LIST_LIMIT });
  if (generations.isPending) return <Spinner label="Loading generations…" />;
  if (generations.isError) return <p className="text-slate-700">Failed to load generations</p>;
  if (generations.data.length === 0) {
    return <p className="text-slate-700">No generations yet. Your images and videos will be listed here once you create them.</p>;
  }
  return (
    <ScrollRegion label="Recent generations">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">Recent generations, newest first</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Date</th>
            <th scope="col" className="py-2 pr-4 font-medium">Type</th>
            <th scope="col" className="py-2 pr-4 font-medium">Status</th>
            <th scope="col" className="py-2 text-right font-medium">Credits</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {generations.data.map((generation) => (
            <tr key={generation.id} data-testid="recent-generation-row">
              <td className="py-3 pr-4 text-slate-700">{formatDateTime(generation.created_at)}</td>
              <td className="py-3 pr-4 text-slate-900">{generationTypeLabel(generation)}</td>
              <td className="py-3 pr-4">
                <GenerationStatusBadge status={generation.status} />
              </td>
              <td className="py-3 text-right">
                <GenerationCredits generation={generation} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
