import {
  BACKDROP_PRESETS,
  BATCH_MAX_ENTRIES,
  BATCH_MAX_PHOTOS,
  BATCH_MESSAGES,
  BATCH_PHOTO_TIER,
  backdropHex,
  resultEntryName,
  retryFailedRequest,
  type Batch,
  type BatchStarted,
  type CameraAngle,
} from '@contracts/batch';
import { BATCH_CAMERA_ANGLES, BATCH_DEFAULT_PROMPT, type ProductType } from '@contracts/catalog';
import { IMAGE_SIZE_NAMES, PROMPT_MAX_LENGTH, type ImageSizeName } from '@contracts/generations';
import { DEFAULT_IMAGE_ASPECT_RATIO, type ImageAspectRatio } from '@contracts/image-ratios';
import { useQueryClient } from '@tanstack/react-query';
import { Coins, Download, Layers, Plus, RotateCcw, Trash2, X } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { ModelChoice, ModelPicture } from '@/components/generation/model-choice';
import { YourImagesPicker } from '@/components/generation/your-images-picker';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label, Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { downloadFile } from '@/lib/downloads';
import { formatCredits } from '@/lib/format';
import { useGeneration, useImageResults } from '@/lib/generations';
import { BATCH_PARAM, useChosenSource, type ChosenSource } from '@/lib/next-step';
import { isInsufficientCredits, useBuyCreditsAction } from '@/lib/buy-credits';
import { profileQueryKey, useProfile, useSetBalance } from '@/lib/profile';
import { useUser } from '@/lib/session-context';
import { useOnModelPhotoCost } from '@/features/prices';
import { useClothingItems } from '@/lib/clothing-items';
import { PRODUCT_LABELS, PRODUCT_TYPE_OPTIONS, productTypeOfResult } from '@/lib/product-types';
import { AspectRatioChoice } from '@/components/generation/aspect-ratio-choice';
import { ACTIVE_BATCH_KEY, DEFAULT_ENTRY, readDraft, requestBatchZip, useBatch, useSubmitBatch, writeDraft, type BatchItem } from './api';
import { askForNotifications, notificationPermission, notifyWorkDone } from '@/lib/notify';
import { plural } from '@contracts/plural';

/**
 * Batch Generation (/studio/generate/batch-generation): selection and parameters, the add button, the batch summary.
 * An entry's image is a library item or one of the seller's finished images; a result's "Add to batch"
 * (`?source=generation:<id>`) opens the screen with it chosen.
 */
export default function BatchGenerationPage() {
  const profile = useProfile();
  const library = useClothingItems();
  const results = useImageResults();
  const submit = useSubmitBatch();
  const setBalance = useSetBalance();
  const queryClient = useQueryClient();
  const user = useUser();
  const ids = { prompt: useId(), hex: useId(), picker: useId(), size: useId(), productType: useId() };

  // Opened from a result's "Add to batch": that image is already chosen.
  const handedOver = useChosenSource();
  const [source, setSource] = useState<ChosenSource | undefined>(handedOver);
  const [prompt, setPrompt] = useState(DEFAULT_ENTRY.prompt);
  const [angles, setAngles] = useState<CameraAngle[]>([]);
  const [backdrop, setBackdrop] = useState<string>('#FFFFFF');
  const [imageSize, setImageSize] = useState<ImageSizeName>('2k');
  const [aspectRatio, setAspectRatio] = useState<ImageAspectRatio>(DEFAULT_IMAGE_ASPECT_RATIO);
  const [productType, setProductType] = useState<ProductType>('clothing');
  // One saved model for every photo of the batch, or each entry's own words.
  const [modelId, setModelId] = useState<string>();
  const [draft, setDraft] = useState<BatchItem[]>(readDraft);
  // `?batch=<id>` (History's "Retry failed" on a batch) shows that batch; else the one this browser last started.
  const [params] = useSearchParams();
  const [activeId, setActiveId] = useState<string | undefined>(() => params.get(BATCH_PARAM) ?? localStorage.getItem(ACTIVE_BATCH_KEY) ?? undefined);
  const active = useBatch(activeId);

  useEffect(() => writeDraft(draft), [draft]);

  // Per photo: a saved model with a portrait may cost more (its own pricing tier), on every photo of the batch.
  const perAngle = useOnModelPhotoCost(BATCH_PHOTO_TIER, modelId);
  const photoCount = draft.reduce((sum, entry) => sum + entry.cameraAngles.length, 0);
  const totalCredits = perAngle === undefined ? undefined : photoCount * perAngle;
  const credits = profile.data?.current_credits;
  const buyCredits = useBuyCreditsAction();
  const item = source?.kind === 'clothing' ? library.data?.find((candidate) => candidate.id === source.id) : undefined;
  const result = useGeneration(source?.kind === 'generation' ? source.id : undefined).data;
  // The name the server gives the entry too: the item's, or what the result is and when.
  const chosenName = item?.name ?? (result?.status === 'complete' && result.result_content_type?.startsWith('image/') ? resultEntryName(result) : undefined);
  // The chosen image's product type is preselected: the item's own, or what the result was made as.
  const chosenProductType = item?.product_type ?? (result ? productTypeOfResult(result) : undefined);
  useEffect(() => {
    if (chosenProductType) setProductType(chosenProductType);
  }, [source?.kind, source?.id, chosenProductType]);
  const pictures = useMemo(
    () =>
      new Map([
        ...(library.data ?? []).map((entry) => [`clothing:${entry.id}`, entry.signed_url] as const),
        ...(results.data ?? []).map((entry) => [`generation:${entry.id}`, entry.thumbnail_url ?? entry.result_url] as const),
      ]),
    [library.data, results.data],
  );
  const pictureOf = (entry: BatchItem) => pictures.get(entry.generationId ? `generation:${entry.generationId}` : `clothing:${entry.clothingItemId}`);

  const toggleAngle = (angle: CameraAngle) =>
    setAngles((current) => (current.includes(angle) ? current.filter((value) => value !== angle) : BATCH_CAMERA_ANGLES.filter((value) => value === angle || current.includes(value))));

  const add = () => {
    if (!source || !chosenName) return void toast.error(BATCH_MESSAGES.selectItem);
    if (angles.length === 0) return void toast.error(BATCH_MESSAGES.selectAngle);
    if (draft.length >= BATCH_MAX_ENTRIES) return void toast.error(BATCH_MESSAGES.tooManyEntries);
    if (photoCount + angles.length > BATCH_MAX_PHOTOS) return void toast.error(BATCH_MESSAGES.tooManyPhotos(photoCount + angles.length));
    const hex = backdropHex(backdrop);
    if (!hex) return void toast.error(BATCH_MESSAGES.invalidBackdrop);
    setDraft((current) => [
      ...current,
      {
        id: crypto.randomUUID(),
        ...(source.kind === 'generation' ? { generationId: source.id } : { clothingItemId: source.id }),
        clothingItemName: chosenName,
        productType,
        prompt: prompt.trim() || BATCH_DEFAULT_PROMPT,
        cameraAngles: angles,
        backdrop: hex,
      },
    ]);
    setAngles([]);
  };

  const onSubmit = async () => {
    if (draft.length === 0) return void toast.error('Error', { description: BATCH_MESSAGES.empty });
    if (totalCredits === undefined || credits === undefined) return void toast.error('Error', { description: 'Failed to load pricing' });
    if (credits < totalCredits) return void toast.error('Insufficient Credits', { description: BATCH_MESSAGES.notEnoughCredits(totalCredits, credits), action: buyCredits });
    try {
      const started = await submit.mutateAsync({
        batchItems: draft.map(({ clothingItemId, generationId, productType: entryType, prompt: entryPrompt, cameraAngles, backdrop: colour }) => ({
          clothingItemId,
          generationId,
          productType: entryType ?? 'clothing',
          prompt: entryPrompt,
          cameraAngles,
          backdrop: colour,
        })),
        imageSize,
        aspectRatio,
        ...(modelId ? { modelId } : {}),
      });
      // After submit the draft is cleared (it was charged) and the balance shows what the debit left.
      setDraft([]);
      follow(started);
    } catch (error) {
      toast.error('Generation Failed', { description: error instanceof Error ? error.message : 'Please try again.' });
    }
  };

  /** A started batch (a new one, or the retry of a finished one's failed photos) is the one the screen follows. */
  const follow = (started: BatchStarted) => {
    setBalance(started.remainingCredits);
    void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.userId) });
    localStorage.setItem(ACTIVE_BATCH_KEY, started.batchId);
    setActiveId(started.batchId);
    toast.success('Batch started', { description: started.message });
  };

  /** "Retry failed": just the failed photos again, as a new batch through the same spending flow (a new charge). */
  const retryFailed = async (batch: Batch) => {
    const body = retryFailedRequest(batch);
    if (!body) return;
    try {
      follow(await submit.mutateAsync(body));
    } catch (error) {
      toast.error('Generation Failed', {
        description: error instanceof Error ? error.message : 'Please try again.',
        action: isInsufficientCredits(error) ? buyCredits : undefined,
      });
    }
  };

  return (
    <div className="space-y-6">
      <PageHeader title="Batch Generation" description="Many photos in one go: every camera angle of every item. 1 credit per camera angle." />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1.3fr)_minmax(0,0.5fr)_minmax(0,1.2fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Selection and parameters</CardTitle>
          </CardHeader>
          <CardContent className="space-y-5">
            <fieldset>
              <legend className="mb-1.5 block text-sm font-medium text-slate-800">Clothing item or past result</legend>
              <YourImagesPicker value={source} onChange={setSource} />
            </fieldset>
            <div>
              <Label htmlFor={ids.productType}>Product type</Label>
              <Select id={ids.productType} value={productType} onChange={(event) => setProductType(event.target.value as ProductType)}>
                {PRODUCT_TYPE_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            </div>
            <ModelChoice value={modelId} onChange={setModelId}>
              <div>
                <Label htmlFor={ids.prompt}>Prompt</Label>
                <Input id={ids.prompt} value={prompt} maxLength={PROMPT_MAX_LENGTH} onChange={(event) => setPrompt(event.target.value)} />
              </div>
            </ModelChoice>
            <fieldset>
              <legend className="mb-1.5 block text-sm font-medium text-slate-800">Camera angles</legend>
              <div className="flex flex-wrap gap-2" role="group" aria-label="Camera angles">
                {BATCH_CAMERA_ANGLES.map((angle) => (
                  <button
                    key={angle}
                    type="button"
                    aria-pressed={angles.includes(angle)}
                    onClick={() => toggleAngle(angle)}
                    className={cn(
                      'rounded-full border px-3 py-1.5 text-sm font-medium',
                      angles.includes(angle) ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 bg-white text-slate-800 hover:border-slate-400',
                    )}
                  >
                    {angle}
                  </button>
                ))}
              </div>
            </fieldset>
            <fieldset>
              <legend className="mb-1.5 block text-sm font-medium text-slate-800">Backdrop colour</legend>
              <div className="flex flex-wrap items-center gap-2" role="radiogroup" aria-label="Backdrop presets">
                {BACKDROP_PRESETS.map((preset) => (
                  <button
                    key={preset.name}
                    type="button"
                    role="radio"
                    aria-checked={backdropHex(backdrop) === preset.hex}
                    aria-label={preset.name}
                    title={preset.name}
                    onClick={() => setBackdrop(preset.hex)}
                    className={cn('h-8 w-8 rounded-full border-2', backdropHex(backdrop) === preset.hex ? 'border-brand-600 ring-2 ring-brand-200' : 'border-slate-300')}
                    style={{ backgroundColor: preset.hex }}
                  />
                ))}
                <input
                  type="color"
                  aria-label="Pick any colour"
                  value={backdropHex(backdrop) ?? '#FFFFFF'}
                  onChange={(event) => setBackdrop(event.target.value.toUpperCase())}
                  className="h-8 w-10 cursor-pointer rounded border border-slate-300 bg-white"
                />
                <Label htmlFor={ids.hex} className="sr-only">
                  Backdrop colour (#RRGGBB)
                </Label>
                <Input id={ids.hex} value={backdrop} onChange={(event) => setBackdrop(event.target.value)} className="w-28 font-mono" placeholder="#RRGGBB" />
              </div>
            </fieldset>
            <div>
              <Label htmlFor={ids.size}>Photo size</Label>
              <Select id={ids.size} value={imageSize} onChange={(event) => setImageSize(event.target.value as ImageSizeName)}>
                {IMAGE_SIZE_NAMES.map((size) => (
                  <option key={size} value={size}>
                    {size.toUpperCase()}
                  </option>
                ))}
              </Select>
            </div>
            <AspectRatioChoice value={aspectRatio} onChange={setAspectRatio} imageSize={imageSize} />
          </CardContent>
        </Card>

        <Card className="self-start">
          <CardContent className="flex flex-col items-stretch gap-3 pt-5 text-center">
            <p className="text-sm text-slate-700">
              {plural(angles.length, 'photo')}
              {perAngle !== undefined && ` · ${formatCredits(angles.length * perAngle)}`}
            </p>
            <Button onClick={add} aria-describedby={ids.picker}>
              <Plus className="h-4 w-4" aria-hidden="true" /> Add to Batch
            </Button>
            <p id={ids.picker} className="text-xs text-slate-600">
              Needs a clothing item or a past result, and at least one camera angle.
            </p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader className="flex flex-row items-center justify-between gap-2">
            <CardTitle>Batch summary</CardTitle>
            <Button variant="ghost" size="sm" onClick={() => setDraft([])} disabled={draft.length === 0}>
              <Trash2 className="h-4 w-4" aria-hidden="true" /> Clear all
            </Button>
          </CardHeader>
          <CardContent className="space-y-4">
            {draft.length === 0 ? (
              <p className="text-sm text-slate-700">No entries yet. Choose an item or a past result and its camera angles, then add them to the batch.</p>
            ) : (
              <ul className="space-y-2" aria-label="Batch entries">
                {draft.map((entry, index) => (
                  <li key={entry.id} data-testid="batch-entry" className="flex items-start gap-3 rounded-lg border border-slate-200 p-2">
                    {pictureOf(entry) ? (
                      <img src={pictureOf(entry)!} alt="" className="h-14 w-11 rounded bg-slate-100 object-cover" />
                    ) : (
                      <span className="h-14 w-11 rounded bg-slate-100" aria-hidden="true" />
                    )}
                    <div className="min-w-0 flex-1 text-sm">
                      <p className="truncate font-medium text-slate-900">{entry.clothingItemName}</p>
                      <p className="truncate text-slate-700">{entry.prompt}</p>
                      <label className="mt-1 flex items-center gap-2 text-slate-700">
                        <span className="text-xs">Product type</span>
                        <select
                          aria-label={`Product type of entry ${index + 1} (${entry.clothingItemName})`}
                          value={entry.productType ?? 'clothing'}
                          onChange={(event) => {
                            const changed = event.target.value as ProductType;
                            setDraft((current) => current.map((other) => (other.id === entry.id ? { ...other, productType: changed } : other)));
                          }}
                          className="rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs"
                        >
                          {PRODUCT_TYPE_OPTIONS.map((option) => (
                            <option key={option.value} value={option.value}>
                              {PRODUCT_LABELS[option.value]}
                            </option>
                          ))}
                        </select>
                      </label>
                      <p className="flex flex-wrap items-center gap-1 text-slate-700">
                        <span className="inline-block h-3 w-3 rounded-full border border-slate-300" style={{ backgroundColor: entry.backdrop }} aria-hidden="true" />
                        <span className="font-mono text-xs">{entry.backdrop}</span> · {entry.cameraAngles.join(', ')}
                      </p>
                    </div>
                    <Button variant="ghost" size="icon" aria-label={`Remove entry ${index + 1} (${entry.clothingItemName})`} onClick={() => setDraft((current) => current.filter((other) => other.id !== entry.id))}>
                      <X className="h-4 w-4" aria-hidden="true" />
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <div className="space-y-1 border-t border-slate-200 pt-3 text-sm text-slate-800">
              <p>
                Photos: <strong data-testid="batch-photo-count">{photoCount}</strong>
              </p>
              <p className="flex items-center gap-2">
                <Coins className="h-4 w-4 text-amber-600" aria-hidden="true" />
                Total: <strong data-testid="batch-total-credits">{formatCredits(totalCredits)}</strong>
                {credits !== undefined && <span>· You have {formatCredits(credits)}</span>}
              </p>
            </div>
            <Button size="lg" className="w-full" onClick={() => void onSubmit()} busy={submit.isPending}>
              <Layers className="h-4 w-4" aria-hidden="true" /> Generate Batch
            </Button>
          </CardContent>
        </Card>
      </div>

      {activeId && (
        <RunningBatch
          batch={active.data}
          loading={active.isPending}
          retrying={submit.isPending}
          onRetryFailed={(batch) => void retryFailed(batch)}
          onDismiss={() => {
            localStorage.removeItem(ACTIVE_BATCH_KEY);
            setActiveId(undefined);
          }}
        />
      )}
    </div>
  );
}

function RunningBatch({
  batch,
  loading,
  retrying,
  onRetryFailed,
  onDismiss,
}: {
  batch: Batch | undefined;
  loading: boolean;
  retrying: boolean;
  onRetryFailed: (batch: Batch) => void;
  onDismiss: () => void;
}) {
  const reported = useRef<string | undefined>(undefined);
  const queryClient = useQueryClient();
  const user = useUser();
  const [zipping, setZipping] = useState(false);
  const [permission, setPermission] = useState(notificationPermission);

  useEffect(() => {
    if (!batch?.summary || reported.current === batch.id) return;
    reported.current = batch.id;
    const { successfulGenerations: made, failedGenerations: failed } = batch.summary;
    if (failed > 0) {
      toast.error(BATCH_MESSAGES.completeWithErrors, {
        description: `${made} of ${made + failed} photos made; ${failed} failed and ${failed === 1 ? 'its credit was' : 'their credits were'} refunded.`,
      });
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.userId) });
    } else {
      toast.success(BATCH_MESSAGES.complete, { description: `${made} ${made === 1 ? 'photo' : 'photos'} made.` });
    }
    notifyWorkDone(batch.summary.message);
  }, [batch, queryClient, user.userId]);

  if (loading || !batch) {
    return (
      <Card>
        <CardContent className="flex justify-center py-10 text-brand-600">
          <Spinner className="h-6 w-6" label="Loading the batch…" />
        </CardContent>
      </Card>
    );
  }
  const { done, failed, total } = batch.progress;
  const finished = done + failed;
  const downloadAll = async () => {
    setZipping(true);
    try {
      const zip = await requestBatchZip(batch.id);
      await downloadFile(zip.url, zip.fileName);
    } catch (error) {
      toast.error('Download failed', { description: error instanceof Error ? error.message : 'Failed to download file' });
    } finally {
      setZipping(false);
    }
  };

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>
          {batch.summary ? 'Batch finished' : 'Batch running'}
        </CardTitle>
        <div className="flex gap-2">
          {!batch.summary && permission === 'default' && (
            <Button variant="outline" onClick={() => void askForNotifications().then(setPermission)}>
              Notify me when done
            </Button>
          )}
          {batch.summary && batch.summary.successfulGenerations > 0 && (
            <Button variant="outline" onClick={() => void downloadAll()} busy={zipping}>
              <Download className="h-4 w-4" aria-hidden="true" /> Download all (zip)
            </Button>
          )}
          {batch.summary && batch.summary.failedGenerations > 0 && (
            <Button variant="outline" onClick={() => onRetryFailed(batch)} busy={retrying}>
              <RotateCcw className="h-4 w-4" aria-hidden="true" /> Retry failed ({formatCredits(batch.summary.failedGenerations * (batch.credits_used / Math.max(1, batch.progress.total)))})
            </Button>
          )}
          {batch.summary && (
            <Button variant="ghost" onClick={onDismiss}>
              Close
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex items-start gap-4">
          {batch.model && (
            <figure className="w-20 shrink-0 text-center" data-testid="batch-model">
              <ModelPicture model={batch.model} className="aspect-[3/4] w-20 rounded-lg" />
              <figcaption className="mt-1 truncate text-xs text-slate-800">{batch.model.name}</figcaption>
            </figure>
          )}
          <div className="min-w-0 flex-1">
            <div
              role="progressbar"
              aria-label="Batch progress"
              aria-valuemin={0}
              aria-valuemax={total}
              aria-valuenow={finished}
              aria-valuetext={`${done} done, ${failed} failed, ${total} in all`}
              className="flex h-3 overflow-hidden rounded-full bg-slate-200"
            >
              <span className="h-full bg-emerald-500 transition-all" style={{ width: `${(100 * done) / Math.max(1, total)}%` }} />
              <span className="h-full bg-red-500 transition-all" style={{ width: `${(100 * failed) / Math.max(1, total)}%` }} />
            </div>
            <p className="mt-2 text-sm text-slate-700" data-testid="batch-progress">
              {done} done · {failed} failed · {total} in all
            </p>
            {batch.summary && <p className="mt-1 text-sm font-medium text-slate-900">{batch.summary.message}</p>}
          </div>
        </div>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6" aria-label="Batch photos">
          {batch.photos?.map((photo) => (
            <li key={photo.generation.id} data-testid="batch-photo" data-status={photo.generation.status} className="overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
              {photo.generation.status === 'complete' && photo.generation.thumbnail_url ? (
                <a href={photo.generation.result_url ?? undefined} target="_blank" rel="noopener noreferrer">
                  <img src={photo.generation.thumbnail_url} alt={`${photo.clothingItemName}, ${photo.cameraAngle}`} className="aspect-[9/16] w-full object-cover" />
                </a>
              ) : photo.generation.status === 'failed' ? (
                <div className="flex aspect-[9/16] items-center justify-center p-2 text-center text-xs text-red-700">{photo.generation.error_message}</div>
              ) : (
                <div className="flex aspect-[9/16] items-center justify-center text-brand-600">
                  <Spinner className="h-5 w-5" label={`Making ${photo.cameraAngle}`} />
                </div>
              )}
              <p className="truncate px-2 py-1 text-xs text-slate-800">
                {photo.entryIndex + 1}. {photo.clothingItemName} · {photo.cameraAngle}
              </p>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
