// The results strip of a batch: one tile per photo (entry × camera angle), the finished picture linked to its full
// size, a failure's message, or a spinner while it is made.
import type { Batch } from '@contracts/batch';
import { RefineCutout } from '@/components/generation/refine-cutout';
import { Spinner } from '@/components/ui/spinner';

export function BatchPhotos({ photos }: { photos: Batch['photos'] }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6" aria-label="Batch photos">
      {photos?.map((photo) => (
        <li key={photo.generation.id} data-testid="batch-photo" data-status={photo.generation.status} className="overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
          {photo.generation.status === 'complete' && photo.generation.thumbnail_url ? (
            <a href={photo.generation.result_url ?? undefined} target="_blank" rel="noopener noreferrer">
              <img src={photo.generation.thumbnail_url} alt={`${photo.clothingItemName}, ${photo.cameraAngle}`} className="aspect-[9/16] w-full bg-white object-contain" />
            </a>
          ) : photo.generation.status === 'failed' ? (
            <div className="flex aspect-[9/16] items-center justify-center p-2 text-center text-xs text-red-700">{photo.generation.error_message}</div>
          ) : (
            <div className="flex aspect-[9/16] items-center justify-center text-brand-600">
              <Spinner className="h-5 w-5" label={`Making ${photo.cameraAngle}`} />
            </div>
          )}
          <p className="break-words px-2 py-1 text-xs text-slate-800">
            {photo.entryIndex + 1}. {photo.clothingItemName} · {photo.cameraAngle}
            {photo.generation.compliance?.review && <span className="block font-medium text-amber-800">Review the cutout</span>}
          </p>
          <div className="px-2 pb-2 [&_button]:w-full">
            <RefineCutout generation={photo.generation} />
          </div>
        </li>
      ))}
    </ul>
  );
}
