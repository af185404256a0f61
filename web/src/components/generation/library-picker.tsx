import type { ClothingItem } from '@contracts/api';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { ChoiceTile } from '@/components/ui/choice-tile';
import { tilePictureOf } from '@/lib/clothing-items';
import { paths } from '@/lib/paths';

/** The active items of the caller's library as pictures to pick one from (image and batch generation). */
export function LibraryPicker(props: {
  items: ClothingItem[] | undefined;
  loading: boolean;
  failed: boolean;
  selected: string | undefined;
  onSelect: (id: string) => void;
  /** The screen also takes an uploaded photo. */
  uploadHint?: boolean;
}) {
  if (props.loading) return <Spinner label="Loading clothing items…" />;
  if (props.failed) return <p className="text-sm text-slate-700">Failed to load clothing items</p>;
  if (!props.items?.length) {
    return (
      <p className="text-sm text-slate-700">
        No clothing items yet. Add some in the{' '}
        <Link to={paths.clothing} className="font-medium text-brand-700 underline">
          Clothing Manager
        </Link>
        {props.uploadHint ? ', or upload a photo.' : '.'}
      </p>
    );
  }
  return (
    <div role="radiogroup" aria-label="Clothing items" className="grid max-h-80 grid-cols-3 gap-2 overflow-y-auto p-1 sm:grid-cols-4">
      {props.items.map((item) => {
        const selected = item.id === props.selected;
        return (
          <ChoiceTile key={item.id} selected={selected} label={item.name} onClick={() => props.onSelect(item.id)}>
            <img src={tilePictureOf(item)} alt="" className="aspect-[3/4] w-full object-cover" loading="lazy" />
            <span className="line-clamp-2 break-words px-1.5 py-1 text-xs text-slate-800">{item.name}</span>
          </ChoiceTile>
        );
      })}
    </div>
  );
}
