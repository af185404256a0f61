import { Check } from 'lucide-react';
import { LibraryPicker } from '@/components/generation/library-picker';
import { generationTypeLabel } from '@/components/generation/generation-labels';
import { Spinner } from '@/components/ui/spinner';
import { useLibraryItems } from '@/features/image-generation';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useGeneration, useImageResults } from '@/lib/generations';
import type { ChosenSource } from '@/lib/next-step';

/** A video's source from what the seller already has: one of the finished images, or a library item. */
export function YourImagesPicker({ value, onChange }: { value: ChosenSource | undefined; onChange: (source: ChosenSource) => void }) {
  const results = useImageResults();
  const library = useLibraryItems();
  // A result handed over from another screen may be older than the newest 20 shown below: it is shown here.
  const chosen = useGeneration(value?.kind === 'generation' ? value.id : undefined).data;
  const listed = results.data?.some((generation) => generation.id === chosen?.id);
  return (
    <div className="space-y-4">
      {chosen && !listed && chosen.result_url && (
        <figure className="flex items-center gap-3 rounded-lg border-2 border-brand-600 p-2">
          <img src={chosen.thumbnail_url ?? chosen.result_url} alt="Chosen image" className="h-20 w-14 rounded object-cover" />
          <figcaption className="text-sm text-slate-800">
            {generationTypeLabel(chosen)} from {formatDateTime(chosen.created_at)}
          </figcaption>
        </figure>
      )}
      <section>
        <h3 className="mb-1.5 text-sm font-medium text-slate-800">Past results</h3>
        {results.isPending ? (
          <Spinner label="Loading your results…" />
        ) : results.isError ? (
          <p className="text-sm text-slate-700">Failed to load generations</p>
        ) : results.data.length === 0 ? (
          <p className="text-sm text-slate-700">No finished images yet.</p>
        ) : (
          <div role="radiogroup" aria-label="Past results" className="grid max-h-64 grid-cols-4 gap-2 overflow-y-auto p-1">
            {results.data.map((generation) => {
              const selected = value?.kind === 'generation' && value.id === generation.id;
              return (
                <button
                  key={generation.id}
                  type="button"
                  role="radio"
                  aria-checked={selected}
                  aria-label={`${generationTypeLabel(generation)} from ${formatDateTime(generation.created_at)}`}
                  onClick={() => onChange({ kind: 'generation', id: generation.id })}
                  className={cn(
                    'relative aspect-[9/16] overflow-hidden rounded-md border-2 bg-slate-100',
                    selected ? 'border-brand-600' : 'border-transparent hover:border-slate-300',
                  )}
                >
                  <img src={generation.thumbnail_url ?? generation.result_url ?? ''} alt="" className="h-full w-full object-cover" loading="lazy" />
                  {selected && (
                    <span className="absolute right-1 top-1 rounded-full bg-brand-600 p-0.5 text-white">
                      <Check className="h-3 w-3" aria-hidden="true" />
                    </span>
                  )}
                </button>
              );
            })}
          </div>
        )}
      </section>
      <section>
        <h3 className="mb-1.5 text-sm font-medium text-slate-800">Clothing library</h3>
        <LibraryPicker
          items={library.data}
          loading={library.isPending}
          failed={library.isError}
          selected={value?.kind === 'clothing' ? value.id : undefined}
          onSelect={(id) => onChange({ kind: 'clothing', id })}
        />
      </section>
    </div>
  );
}
