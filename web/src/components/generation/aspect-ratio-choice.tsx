import { IMAGE_ASPECT_RATIO_HINTS, IMAGE_ASPECT_RATIOS, imageSizeFor, type ImageAspectRatio } from '@contracts/image-ratios';
import type { ImageSizeName } from '@contracts/generations';
import { cn } from '@/lib/cn';

/** The picture's ratio (Image Generation, Batch): 9:16 first and the default, then the marketplaces' ratios. */
export function AspectRatioChoice({ value, onChange, imageSize }: { value: ImageAspectRatio; onChange: (ratio: ImageAspectRatio) => void; imageSize: ImageSizeName }) {
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">Aspect ratio</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {IMAGE_ASPECT_RATIOS.map((ratio) => {
          const size = imageSizeFor(imageSize, ratio);
          return (
            <label
              key={ratio}
              title={IMAGE_ASPECT_RATIO_HINTS[ratio]}
              className={cn(
                'flex cursor-pointer flex-col items-center rounded-lg border-2 px-2 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                value === ratio ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:border-slate-300',
              )}
            >
              <input type="radio" name="aspect-ratio" value={ratio} className="sr-only" checked={value === ratio} onChange={() => onChange(ratio)} />
              <span className="font-semibold text-slate-900">{ratio}</span>
              <span className="text-xs text-slate-600">
                {size.width}×{size.height}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
