// The body of a library screen (Clothing, Models): the search box, the "Showing n of m" line, and the grid of cards,
// or what stands in its place (loading, a failed load with Try again, an empty library, no match for the search).
import { Search, type LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, Label } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';

export function LibrarySearch({ value, onChange }: { value: string; onChange: (search: string) => void }) {
  const id = useId();
  return (
    <>
      <Label htmlFor={id}>Search</Label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
        <Input id={id} type="search" value={value} onChange={(event) => onChange(event.target.value)} placeholder="Search by name or description" className="pl-9" />
      </div>
    </>
  );
}

function EmptyState({ Icon, title, text, children }: { Icon: LucideIcon; title: string; text: string; children?: ReactNode }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50">
        <Icon className="h-7 w-7 text-brand-600" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <p className="max-w-md text-slate-700">{text}</p>
      {children && <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div>}
    </Card>
  );
}

/** The texts of one library: what its entries are called and what each state says. */
export interface LibraryTexts {
  /** 'items', 'models': "Showing 2 of 5 items". */
  plural: string;
  /** The list's accessible name. */
  listLabel: string;
  loading: string;
  failed: { title: string; text: string };
  empty: { title: string; text: string };
  noMatch: { title: string; text: string };
}

export interface LibraryListProps<T extends { id: string }> {
  query: { data: unknown; isPending: boolean; isError: boolean; isFetching: boolean; refetch: () => unknown };
  all: T[];
  shown: T[];
  texts: LibraryTexts;
  Icon: LucideIcon;
  /** The buttons that add to the library, offered again when it is empty. */
  addActions: ReactNode;
  countTestId: string;
  renderCard: (entry: T) => ReactNode;
}

export function LibraryList<T extends { id: string }>({ query, all, shown, texts, Icon, addActions, countTestId, renderCard }: LibraryListProps<T>) {
  return (
    <>
      <p className="text-sm text-slate-700" aria-live="polite" data-testid={countTestId}>
        {query.data ? `Showing ${shown.length} of ${all.length} ${texts.plural}` : '\u00a0'}
      </p>

      {query.isPending ? (
        <div className="flex justify-center py-16 text-brand-600">
          <Spinner className="h-8 w-8" label={texts.loading} />
        </div>
      ) : query.isError ? (
        <EmptyState Icon={Icon} {...texts.failed}>
          <Button variant="outline" onClick={() => void query.refetch()} busy={query.isFetching}>
            Try again
          </Button>
        </EmptyState>
      ) : all.length === 0 ? (
        <EmptyState Icon={Icon} {...texts.empty}>
          {addActions}
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState Icon={Icon} {...texts.noMatch} />
      ) : (
        <ul aria-label={texts.listLabel} className="grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-3 xl:grid-cols-4">
          {shown.map((entry) => (
            <li key={entry.id}>{renderCard(entry)}</li>
          ))}
        </ul>
      )}
    </>
  );
}
