import { Spinner } from '@/components/ui/spinner';
import { useClothingItems } from '@/lib/clothing-items';
import { formatDateTime } from '@/lib/format';
import { useGeneration, useImageResults } from '@/lib/generations';
import type { ChosenSource } from '@/lib/next-step';
import { ChoiceTile } from '@/components/ui/choice-tile';
import { ResultCaption } from './result-caption';
import { LibraryPicker } from './library-picker';

/** A video's or a batch entry's source from what the seller already has: one of the finished images, or a library item. */
export function YourImagesPicker({ value, onChange }: { value: ChosenSource | undefined; onChange: (source: ChosenSource) => void }) {
  const results = useImageResults();
  const library = useClothingItems();
  // A result handed over from another screen may be older than the newest 20 shown below: it is shown here.
  const chosen = useGeneration(value?.kind === 'generation' ? value.id : undefined).data;
  const listed = results.data?.some((generation) => generation.id === chosen?.id);
  return (
    <div className="space-y-4">
      {chosen && !listed && chosen.result_url && (
        <figure className="flex items-center gap-3 rounded-lg border-2 border-brand-600 p-2">
          <img src={chosen.thumbnail_url ?? chosen.result_url} alt="Chosen image" className="h-20 w-14 rounded object-cover" />
          <figcaption className="text-sm text-slate-800">
            {chosen.title}
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
                <ChoiceTile
                  key={generation.id}
                  selected={selected}
                  label={generation.title}
                  title={`${generation.title} (${formatDateTime(generation.created_at)})`}
                  onClick={() => onChange({ kind: 'generation', id: generation.id })}
                  className="aspect-[9/16]"
                >
                  <img src={generation.thumbnail_url ?? generation.result_url ?? ''} alt="" className="h-full w-full object-cover" loading="lazy" />
                    <ResultCaption title={generation.title} />
                </ChoiceTile>
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
