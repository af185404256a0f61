// The batch being composed: the entry form (image, product type, prompt, shots, packshot marketplace, backdrop) and the list of
// entries kept in the browser, with the checks that run when an entry is added.
import { BATCH_DEFAULT_MARKETPLACE, BATCH_MAX_ENTRIES, BATCH_MAX_PHOTOS, BATCH_MESSAGES, backdropHex, resultEntryName, type CameraAngle } from '@contracts/batch';
import { BATCH_DEFAULT_PROMPT, BATCH_PACKSHOT_SHOT, BATCH_SHOTS, type ProductType } from '@contracts/catalog';
import type { Marketplace } from '@contracts/marketplace';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { tilePictureOf, useClothingItems } from '@/lib/clothing-items';
import { useGeneration, useImageResults } from '@/lib/generations';
import { useSavedModels } from '@/lib/saved-models';
import { useChosenSource, type ChosenSource } from '@/lib/next-step';
import { productTypeOfResult } from '@/lib/product-types';
import { DEFAULT_ENTRY, readDraft, writeDraft, type BatchItem } from './api';

export function useBatchDraft() {
  const library = useClothingItems();
  const results = useImageResults();
  // Opened from a result's "Add to batch": that image is already chosen.
  const handedOver = useChosenSource();
  const [source, setSource] = useState<ChosenSource | undefined>(handedOver);
  const [prompt, setPrompt] = useState(DEFAULT_ENTRY.prompt);
  const [angles, setAngles] = useState<CameraAngle[]>([]);
  const [backdrop, setBackdrop] = useState<string>('#FFFFFF');
  const [marketplace, setMarketplace] = useState<Marketplace>(BATCH_DEFAULT_MARKETPLACE);
  const [productType, setProductType] = useState<ProductType>('clothing');
  // The entry's saved model (or its prompt's words): kept with the entry when it is added, so each entry has its own.
  const [modelId, setModelId] = useState<string | undefined>(undefined);
  const savedModels = useSavedModels();
  const [draft, setDraft] = useState<BatchItem[]>(readDraft);

  useEffect(() => writeDraft(draft), [draft]);

  const photoCount = draft.reduce((sum, entry) => sum + entry.cameraAngles.length, 0);
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
        ...(library.data ?? []).map((entry) => [`clothing:${entry.id}`, tilePictureOf(entry)] as const),
        ...(results.data ?? []).map((entry) => [`generation:${entry.id}`, entry.thumbnail_url ?? entry.result_url] as const),
      ]),
    [library.data, results.data],
  );
  const pictureOf = (entry: BatchItem) => pictures.get(entry.generationId ? `generation:${entry.generationId}` : `clothing:${entry.clothingItemId}`);

  const toggleAngle = (angle: CameraAngle) =>
    setAngles((current) => (current.includes(angle) ? current.filter((value) => value !== angle) : BATCH_SHOTS.filter((value) => value === angle || current.includes(value))));

  const chosenModel = modelId === undefined ? undefined : savedModels.data?.find((model) => model.id === modelId);

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
        ...(chosenModel ? { modelId: chosenModel.id, modelName: chosenModel.name, modelDescription: chosenModel.description } : {}),
        cameraAngles: angles,
        ...(angles.includes(BATCH_PACKSHOT_SHOT) ? { marketplace } : {}),
        backdrop: hex,
      },
    ]);
    setAngles([]);
  };

  const setEntryProductType = (id: string, changed: ProductType) =>
    setDraft((current) => current.map((other) => (other.id === id ? { ...other, productType: changed } : other)));
  const remove = (id: string) => setDraft((current) => current.filter((other) => other.id !== id));
  const clear = () => setDraft([]);

  return {
    entry: { source, setSource, prompt, setPrompt, modelId, setModelId, angles, toggleAngle, marketplace, setMarketplace, backdrop, setBackdrop, productType, setProductType },
    draft,
    photoCount,
    pictureOf,
    add,
    setEntryProductType,
    remove,
    clear,
  };
}

export type BatchEntryForm = ReturnType<typeof useBatchDraft>['entry'];
