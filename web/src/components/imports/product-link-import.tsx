// "Import from a product link", the same on every screen that takes a product photo: paste a shop page's address,
// see the product images found there as thumbnails (with their size, and whether this screen can take them), pick
// one, and the screen carries on with it as with an uploaded file. The server fetches everything; the previews are
// small data: images it made, so the page loads nothing from the shop.
import { IMPORT_MAX_BYTES, IMPORT_MESSAGES, imageTooLargeMessage, isWebAddress, type ImportCandidate, type ImportedImage, type ImportPurpose, type ImportResponse } from '@contracts/imports';
import { fileNameWithoutExtension, formatFileSize } from '@contracts/upload-rules';
import { AlertTriangle, Search } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { findProductImages, storeImportedImage } from '@/lib/imports';
import { ChoiceTile } from '@/components/ui/choice-tile';

/** What a screen gets once a candidate is stored: the key its route takes, and a name for the image. */
export interface ProductLinkImage extends ImportedImage {
  /** The image's file name without extension (a default item name). */
  name: string;
}

const problemText = (error: unknown) => (error instanceof ApiError ? error.message : "We couldn't reach that page");

const candidateName = (imageUrl: string) => {
  try {
    return fileNameWithoutExtension(decodeURIComponent(new URL(imageUrl).pathname.split('/').pop() ?? '')) || 'Imported image';
  } catch {
    return 'Imported image';
  }
};

export function ProductLinkImport({
  purpose,
  disabled,
  onImported,
}: {
  purpose: ImportPurpose;
  disabled?: boolean;
  onImported: (image: ProductLinkImage | undefined) => void;
}) {
  const ids = { url: useId(), hint: useId(), problem: useId() };
  const [url, setUrl] = useState('');
  const [searching, setSearching] = useState(false);
  const [found, setFound] = useState<ImportResponse>();
  const [picking, setPicking] = useState<string>();
  const [picked, setPicked] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const limit = IMPORT_MAX_BYTES[purpose];

  const search = async () => {
    if (!url.trim()) return setProblem(IMPORT_MESSAGES.enterUrl);
    if (!isWebAddress(url)) return setProblem(IMPORT_MESSAGES.notAUrl);
    setSearching(true);
    setProblem(undefined);
    setFound(undefined);
    setPicked(undefined);
    onImported(undefined);
    try {
      setFound(await findProductImages(url.trim()));
    } catch (error) {
      setProblem(problemText(error));
    } finally {
      setSearching(false);
    }
  };

  const pick = async (candidate: ImportCandidate) => {
    if (!found || picking) return;
    setPicking(candidate.imageUrl);
    setProblem(undefined);
    try {
      const stored = await storeImportedImage(found.importId, candidate.imageUrl, purpose);
      setPicked(candidate.imageUrl);
      onImported({ ...stored, name: candidateName(candidate.imageUrl) });
    } catch (error) {
      setProblem(problemText(error));
    } finally {
      setPicking(undefined);
    }
  };

  // The field lives inside each screen's form: Enter searches instead of submitting that form.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void search();
  };

  return (
    <div className="space-y-3">
      <div>
        <Label htmlFor={ids.url}>Product link</Label>
        <div className="flex flex-wrap gap-2">
          <Input
            className="min-w-0 flex-1 basis-48"
            id={ids.url}
            type="url"
            inputMode="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder="https://your-shop.com/products/linen-shirt"
            disabled={disabled || searching}
            aria-describedby={problem ? `${ids.hint} ${ids.problem}` : ids.hint}
            aria-invalid={problem ? true : undefined}
          />
          <Button variant="outline" onClick={() => void search()} busy={searching} disabled={disabled}>
            <Search className="h-4 w-4" aria-hidden="true" /> Find images
          </Button>
        </div>
        <p id={ids.hint} className="mt-1 text-xs text-slate-600">
          Paste the address of a product page (Shopify, WooCommerce, Etsy or your own store) or of an image. JPEG, PNG or WebP, up to {formatFileSize(limit)}.
        </p>
      </div>

      {searching && <Spinner label="Looking for product images…" />}
      {problem && (
        <p id={ids.problem} role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {problem}
        </p>
      )}

      {found && (
        <div role="radiogroup" aria-label="Images found on the page" className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {found.candidates.map((candidate, index) => {
            const tooLarge = candidate.sizeBytes > limit;
            const selected = picked === candidate.imageUrl;
            return (
              <ChoiceTile
                key={candidate.imageUrl}
                selected={selected}
                label={`Product image ${index + 1}, ${candidate.width}×${candidate.height}, ${formatFileSize(candidate.sizeBytes)}`}
                aria-disabled={tooLarge || undefined}
                disabled={disabled || picking !== undefined}
                title={tooLarge ? imageTooLargeMessage(candidate.sizeBytes, limit) : undefined}
                onClick={() => (tooLarge ? setProblem(imageTooLargeMessage(candidate.sizeBytes, limit)) : void pick(candidate))}
                className={cn(tooLarge && 'opacity-60')}
              >
                <img src={candidate.previewUrl} alt="" className="aspect-square w-full object-contain" />
                <span className="block px-1.5 py-1 text-xs leading-snug text-slate-700">
                  {candidate.width}×{candidate.height} · {formatFileSize(candidate.sizeBytes)}
                </span>
                {tooLarge && <span className="block px-1.5 pb-1 text-xs font-medium text-red-700">Over {formatFileSize(limit)}</span>}
                {picking === candidate.imageUrl && (
                  <span className="absolute inset-0 flex items-center justify-center bg-white/70">
                    <Spinner className="h-5 w-5" label={null} />
                  </span>
                )}
              </ChoiceTile>
            );
          })}
        </div>
      )}
      {found && !picked && !picking && <p className="text-sm text-slate-700">Pick the product photo to use.</p>}
    </div>
  );
}
