// The "Selection and parameters" card: the entry being composed (image, product type, its own prompt or saved model,
// camera angles, backdrop) and the settings of the whole batch (photo size, aspect ratio).
import { IMAGE_SIZE_NAMES, PROMPT_MAX_LENGTH, type ImageSizeName } from '@contracts/generations';
import type { ImageAspectRatio } from '@contracts/image-ratios';
import { useId } from 'react';
import { AspectRatioChoice } from '@/components/generation/aspect-ratio-choice';
import { ModelChoice } from '@/components/generation/model-choice';
import { YourImagesPicker } from '@/components/generation/your-images-picker';
import { ProductTypeSelect } from '@/components/product-type-select';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label, Select } from '@/components/ui/field';
import { BATCH_PACKSHOT_SHOT } from '@contracts/catalog';
import { BackdropChoice, CameraAngleChoice, PackshotMarketplaceChoice } from './entry-choices';
import type { BatchEntryForm } from './use-batch-draft';

/** What applies to every photo of the batch. */
export interface BatchSettings {
  imageSize: ImageSizeName;
  aspectRatio: ImageAspectRatio;
}

export function BatchParameters({
  entry,
  settings,
  onSettingsChange,
}: {
  entry: BatchEntryForm;
  settings: BatchSettings;
  onSettingsChange: (changed: Partial<BatchSettings>) => void;
}) {
  const ids = { prompt: useId(), size: useId() };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Selection and parameters</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
        <fieldset>
          <legend className="mb-1.5 block text-sm font-medium text-slate-800">Clothing item or past result</legend>
          <YourImagesPicker value={entry.source} onChange={entry.setSource} />
        </fieldset>
        <ProductTypeSelect value={entry.productType} onChange={entry.setProductType} />
        <ModelChoice value={entry.modelId} onChange={entry.setModelId}>
          <div>
            <Label htmlFor={ids.prompt}>Prompt</Label>
            <Input id={ids.prompt} value={entry.prompt} maxLength={PROMPT_MAX_LENGTH} onChange={(event) => entry.setPrompt(event.target.value)} />
          </div>
        </ModelChoice>
        <CameraAngleChoice angles={entry.angles} onToggle={entry.toggleAngle} />
        {entry.angles.includes(BATCH_PACKSHOT_SHOT) && <PackshotMarketplaceChoice marketplace={entry.marketplace} onChange={entry.setMarketplace} />}
        <BackdropChoice backdrop={entry.backdrop} onChange={entry.setBackdrop} />
        <div>
          <Label htmlFor={ids.size}>Photo size</Label>
          <Select id={ids.size} value={settings.imageSize} onChange={(event) => onSettingsChange({ imageSize: event.target.value as ImageSizeName })}>
            {IMAGE_SIZE_NAMES.map((size) => (
              <option key={size} value={size}>
                {size.toUpperCase()}
              </option>
            ))}
          </Select>
        </div>
        <AspectRatioChoice value={settings.aspectRatio} onChange={(aspectRatio) => onSettingsChange({ aspectRatio })} imageSize={settings.imageSize} />
      </CardContent>
    </Card>
  );
}
