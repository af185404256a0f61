import type { ClothingItem } from '@contracts/api';
import { GENERATION_UPLOAD_MAX_BYTES } from '@contracts/catalog';
import type { Generation } from '@contracts/generations';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { checkPickedImage } from '@/lib/image-check';
import { useImageResults } from '@/lib/generations';
import { useClothingItems } from '@/lib/clothing-items';
import { useObjectUrl } from '@/lib/uploads';
import { ChoiceTile } from '@/components/ui/choice-tile';
import { ResultCaption } from './result-caption';
import { LibraryPicker } from './library-picker';

/** The image an edit, upscale or packshot starts from: a file to upload, one of the caller's results, or a library item. */
export type ImageChoice = { kind: 'file'; file: File } | { kind: 'result'; generation: Generation } | { kind: 'library'; item: ClothingItem };

/** The choice's picture for the preview column. */
export function useChoicePreview(choice: ImageChoice | undefined): { url: string; alt: string } | undefined {
  const fileUrl = useObjectUrl(choice?.kind === 'file' ? choice.file : undefined);
  if (choice?.kind === 'file') return fileUrl ? { url: fileUrl, alt: choice.file.name } : undefined;
  if (choice?.kind === 'result' && choice.generation.result_url) return { url: choice.generation.result_url, alt: 'Chosen result' };
  if (choice?.kind === 'library') return { url: choice.item.signed_url, alt: choice.item.name };
  return undefined;
}

type SourceTab = 'upload' | 'results' | 'library';

/**
 * Upload (≤ 10 MB of PNG, JPG, JPEG, WEBP) or pick one of the newest 20 finished pictures; with `library`, also an
 * item of the Clothing Manager (a packshot is mostly made from a product photo there).
 */
export function ImageSourcePicker({
  value,
  onChange,
  library = false,
}: {
  value: ImageChoice | undefined;
  onChange: (choice: ImageChoice | undefined) => void;
  library?: boolean;
}) {
  const inputId = useId();
  const results = useImageResults();
  // Past results first when there are any (a seller mostly edits or upscales what they just made), until a tab is picked.
  const [picked, setTab] = useState<SourceTab>();
  const tab: SourceTab =
    picked ??
    (value?.kind === 'file' ? 'upload' : value?.kind === 'library' ? 'library' : value?.kind === 'result' || (results.data?.length ?? 0) > 0 ? 'results' : 'upload');
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const problem = await checkPickedImage(file, GENERATION_UPLOAD_MAX_BYTES);
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      return;
    }
    onChange({ kind: 'file', file });
  };

  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">Image</legend>
      <Tabs value={tab} onValueChange={(next) => setTab(next as SourceTab)}>
        <TabsList aria-label="Image source">
          <TabsTrigger value="upload">Upload</TabsTrigger>
          <TabsTrigger value="results">Past results</TabsTrigger>
          {library && <TabsTrigger value="library">Clothing items</TabsTrigger>}
        </TabsList>
        <TabsContent value="upload" className="mt-3">
          <FileDropZone
            id={inputId}
            fileName={value?.kind === 'file' ? value.file.name : undefined}
            placeholder="Choose an image"
            hint="PNG, JPG, JPEG or WEBP, up to 10 MB"
            ariaLabel="Upload an image"
            onFile={onFile}
          />
        </TabsContent>
        <TabsContent value="results" className="mt-3">
          {results.isPending ? (
            <Spinner label="Loading your results…" />
          ) : results.isError ? (
            <p className="text-sm text-slate-700">Failed to load generations</p>
          ) : results.data.length === 0 ? (
            <p className="text-sm text-slate-700">No finished images yet. Generate one first, or upload an image.</p>
          ) : (
            <div role="radiogroup" aria-label="Past results" className="grid max-h-80 grid-cols-3 gap-2 overflow-y-auto p-1 sm:grid-cols-4">
              {results.data.map((generation) => {
                const selected = value?.kind === 'result' && value.generation.id === generation.id;
                return (
                  <ChoiceTile
                    key={generation.id}
                    selected={selected}
                    label={generation.title}
                    title={`${generation.title} (${formatDateTime(generation.created_at)})`}
                    onClick={() => onChange({ kind: 'result', generation })}
                    className="aspect-[9/16]"
                  >
                    <img src={generation.thumbnail_url ?? generation.result_url ?? ''} alt="" className="h-full w-full object-cover" loading="lazy" />
                    <ResultCaption title={generation.title} />
                  </ChoiceTile>
                );
              })}
            </div>
          )}
        </TabsContent>
        {library && (
          <TabsContent value="library" className="mt-3">
            <LibraryChoice value={value} onChange={onChange} />
          </TabsContent>
        )}
      </Tabs>
    </fieldset>
  );
}

/** The library tab (read only where the picker offers it). */
function LibraryChoice({ value, onChange }: { value: ImageChoice | undefined; onChange: (choice: ImageChoice) => void }) {
  const items = useClothingItems();
  return (
    <LibraryPicker
      items={items.data}
      loading={items.isPending}
      failed={items.isError}
      selected={value?.kind === 'library' ? value.item.id : undefined}
      onSelect={(id) => {
        const item = items.data?.find((candidate) => candidate.id === id);
        if (item) onChange({ kind: 'library', item });
      }}
      uploadHint
    />
  );
}
