import { CAMERA_ZOOMS, GENERATION_UPLOAD_MAX_BYTES, type ProductType } from '@contracts/catalog';
import { DEFAULT_IMAGE_ASPECT_RATIO, imageSizeFor, type ImageAspectRatio } from '@contracts/image-ratios';
import {
  DEFAULT_IMAGE_AI_MODEL,
  GENERATION_MESSAGES,
  IMAGE_AI_MODELS,
  IMAGE_SIZE_NAMES,
  MODEL_DESCRIPTION_PLACEHOLDER,
  PROMPT_MAX_LENGTH,
  type GenerateImageRequest,
  type ImageSizeName,
} from '@contracts/generations';
import { Sparkles } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CostFooter } from '@/components/generation/cost-footer';
import { GenerationPreview, type PendingStep } from '@/components/generation/generation-preview';
import { ProductLinkImport, type ProductLinkImage } from '@/components/imports/product-link-import';
import { LibraryPicker } from '@/components/generation/library-picker';
import { AspectRatioChoice } from '@/components/generation/aspect-ratio-choice';
import { ModelChoice } from '@/components/generation/model-choice';
import { PageHeader } from '@/components/page-header';
import { ProductTypeSelect } from '@/components/product-type-select';
import { Card, CardContent } from '@/components/ui/card';
import { Label, Select, Textarea } from '@/components/ui/field';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/cn';
import { formatCredits } from '@/lib/format';
import { uploadGenerationImage, useFollowedGeneration, useStartGeneration } from '@/lib/generations';
import { useClothingItems } from '@/lib/clothing-items';
import { checkPickedImage } from '@/lib/image-check';
import { isInsufficientCredits, useBuyCreditsAction } from '@/lib/buy-credits';
import { useProfile } from '@/lib/profile';
import { useObjectUrl } from '@/lib/uploads';
import { useChosenSource } from '@/lib/next-step';
import { useOnModelPhotoCost } from '@/features/prices';

type SourceMode = 'library' | 'upload' | 'link';

const ZOOM_LABELS: Record<(typeof CAMERA_ZOOMS)[number], string> = {
  auto: 'Auto',
  'full-body': 'Full body',
  'mid-shot': 'Mid-shot',
  'close-up': 'Close-up',
};

/** Image Generation (/studio/generate/image-generation): the product on an AI model; form left, preview right. */
export default function ImageGenerationPage() {
  const profile = useProfile();
  const start = useStartGeneration('/generate-ai-image');
  // Opened from a library item's "Make an image": that item is already chosen.
  const handedOver = useChosenSource();
  const [mode, setMode] = useState<SourceMode>('library');
  const [itemId, setItemId] = useState<string | undefined>(handedOver?.kind === 'clothing' ? handedOver.id : undefined);
  const [file, setFile] = useState<File>();
  const [imported, setImported] = useState<ProductLinkImage>();
  const [productType, setProductType] = useState<ProductType>('clothing');
  const [prompt, setPrompt] = useState('');
  const [modelId, setModelId] = useState<string>();
  // A saved model with a portrait may cost more (its own pricing tier): the price shown is the one charged.
  const cost = useOnModelPhotoCost('image-generation', modelId);
  const [aiModel, setAiModel] = useState<string>(DEFAULT_IMAGE_AI_MODEL);
  const [cameraZoom, setCameraZoom] = useState<(typeof CAMERA_ZOOMS)[number]>('auto');
  const [imageSize, setImageSize] = useState<ImageSizeName>('2k');
  const [aspectRatio, setAspectRatio] = useState<ImageAspectRatio>(DEFAULT_IMAGE_ASPECT_RATIO);
  const [promptEnhance, setPromptEnhance] = useState(false);
  const [pending, setPending] = useState<PendingStep>();
  const [generationId, setGenerationId] = useState<string>();
  const followed = useFollowedGeneration(generationId, 'Generation Failed');
  const ids = { prompt: useId(), model: useId(), zoom: useId(), enhance: useId(), file: useId() };
  const library = useClothingItems();
  const fileUrl = useObjectUrl(file);
  const item = library.data?.find((candidate) => candidate.id === itemId);
  // The chosen library item's product type is preselected (it can still be changed).
  const itemProductType = item?.product_type;
  useEffect(() => {
    if (itemProductType) setProductType(itemProductType);
  }, [itemId, itemProductType]);
  const credits = profile.data?.current_credits;
  const buyCredits = useBuyCreditsAction();
  const working = pending !== undefined || followed.data?.status === 'processing';

  const pickFile = async (picked: File | undefined) => {
    if (!picked) return;
    const problem = await checkPickedImage(picked, GENERATION_UPLOAD_MAX_BYTES);
    if (problem) return void toast.error(problem.title, { description: problem.description });
    setFile(picked);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The same checks as the server's, in its order, before anything is sent.
    if (mode === 'library' && !item) return void toast.error(GENERATION_MESSAGES.selectClothingItem);
    if (mode === 'upload' && !file) return void toast.error(GENERATION_MESSAGES.uploadProductImage);
    if (mode === 'link' && !imported) return void toast.error(GENERATION_MESSAGES.uploadProductImage);
    if (!modelId && !prompt.trim()) return void toast.error(GENERATION_MESSAGES.enterModelDescription);
    if (credits !== undefined && cost !== undefined && credits < cost) return void toast.error(GENERATION_MESSAGES.needOneCredit, { action: buyCredits });
    try {
      let source: Pick<GenerateImageRequest, 'imageKey' | 'clothingItemId'>;
      if (mode === 'upload' && file) {
        setPending({ label: 'Uploading…', fraction: 0 });
        source = { imageKey: await uploadGenerationImage(file, (fraction) => setPending({ label: 'Uploading…', fraction })) };
      } else if (mode === 'link' && imported) {
        source = { imageKey: imported.imageKey };
      } else {
        source = { clothingItemId: item!.id };
      }
      setPending({ label: 'Starting…' });
      const person = modelId ? { modelId } : { prompt: prompt.trim() };
      const started = await start.mutateAsync({ ...source, productType, ...person, aiModel, cameraZoom, imageSize, aspectRatio, promptEnhance });
      setGenerationId(started.generationId);
    } catch (error) {
      toast.error('Generation Failed', {
        description: error instanceof Error ? error.message : 'Please try again.',
        action: isInsufficientCredits(error) ? buyCredits : undefined,
      });
    } finally {
      setPending(undefined);
    }
  };

  return (
    <div>
      <PageHeader title="Image Generation" description={`Put your product on an AI model. ${formatCredits(cost)} per image.`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardContent className="pt-5">
            <form onSubmit={(event) => void onSubmit(event)} className="space-y-5" noValidate>
              <fieldset>
                <legend className="mb-1.5 block text-sm font-medium text-slate-800">Product image</legend>
                <Tabs value={mode} onValueChange={(value) => setMode(value as SourceMode)}>
                  <TabsList aria-label="Product image source">
                    <TabsTrigger value="library">From library</TabsTrigger>
                    <TabsTrigger value="upload">Upload</TabsTrigger>
                    <TabsTrigger value="link">Product link</TabsTrigger>
                  </TabsList>
                  <TabsContent value="library" className="mt-3">
                    <LibraryPicker uploadHint items={library.data} loading={library.isPending} failed={library.isError} selected={itemId} onSelect={setItemId} />
                  </TabsContent>
                  <TabsContent value="upload" className="mt-3">
                    <FileDropZone
                      id={ids.file}
                      fileName={file?.name}
                      previewUrl={fileUrl}
                      placeholder="Choose a product photo"
                      hint="PNG, JPG, JPEG or WEBP, up to 10 MB"
                      ariaLabel="Upload a product image"
                      onFile={pickFile}
                    />
                  </TabsContent>
                  <TabsContent value="link" className="mt-3">
                    <p className="mb-2 text-sm text-slate-700">Import from a product link</p>
                    <ProductLinkImport purpose="image" onImported={setImported} />
                  </TabsContent>
                </Tabs>
              </fieldset>

              <div className="grid gap-4 sm:grid-cols-2">
                <ProductTypeSelect value={productType} onChange={setProductType} />
                <div>
                  <Label htmlFor={ids.model}>AI model</Label>
                  <Select id={ids.model} value={aiModel} onChange={(event) => setAiModel(event.target.value)}>
                    {IMAGE_AI_MODELS.map((model) => (
                      <option key={model.id} value={model.id}>
                        {model.label}
                      </option>
                    ))}
                  </Select>
                </div>
              </div>

              <ModelChoice value={modelId} onChange={setModelId}>
                <div>
                  <Label htmlFor={ids.prompt}>Model description</Label>
                  <Textarea
                    id={ids.prompt}
                    value={prompt}
                    onChange={(event) => setPrompt(event.target.value)}
                    placeholder={MODEL_DESCRIPTION_PLACEHOLDER}
                    maxLength={PROMPT_MAX_LENGTH}
                    required
                  />
                </div>
              </ModelChoice>

              <div>
                <Label htmlFor={ids.zoom}>Camera zoom</Label>
                <Select id={ids.zoom} value={cameraZoom} onChange={(event) => setCameraZoom(event.target.value as typeof cameraZoom)}>
                  {CAMERA_ZOOMS.map((zoom) => (
                    <option key={zoom} value={zoom}>
                      {ZOOM_LABELS[zoom]}
                    </option>
                  ))}
                </Select>
              </div>

              <fieldset>
                <legend className="mb-1.5 block text-sm font-medium text-slate-800">Image size</legend>
                <div className="grid grid-cols-3 gap-2">
                  {IMAGE_SIZE_NAMES.map((size) => (
                    <label
                      key={size}
                      className={cn(
                        'flex cursor-pointer flex-col items-center rounded-lg border-2 px-2 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                        imageSize === size ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:border-slate-300',
                      )}
                    >
                      <input type="radio" name="image-size" value={size} className="sr-only" checked={imageSize === size} onChange={() => setImageSize(size)} />
                      <span className="font-semibold text-slate-900">{size.toUpperCase()}</span>
                      <span className="text-xs text-slate-600">
                        {imageSizeFor(size, aspectRatio).width}×{imageSizeFor(size, aspectRatio).height}
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>

              <AspectRatioChoice value={aspectRatio} onChange={setAspectRatio} imageSize={imageSize} />

              <div className="flex items-center justify-between gap-4">
                <label htmlFor={ids.enhance} className="text-sm font-medium text-slate-800">
                  Prompt enhance
                  <span className="block text-xs font-normal text-slate-600">Let the studio add detail to your description</span>
                </label>
                <button
                  id={ids.enhance}
                  type="button"
                  role="switch"
                  aria-checked={promptEnhance}
                  onClick={() => setPromptEnhance((on) => !on)}
                  className={cn('relative h-6 w-11 shrink-0 rounded-full transition-colors', promptEnhance ? 'bg-brand-600' : 'bg-slate-300')}
                >
                  <span
                    aria-hidden="true"
                    data-testid="prompt-enhance-knob"
                    className={cn('absolute left-0.5 top-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform', promptEnhance ? 'translate-x-5' : 'translate-x-0')}
                  />
                </button>
              </div>

              <CostFooter cost={cost} balance={credits} label="Generate Image" icon={Sparkles} busy={working} />
            </form>
          </CardContent>
        </Card>

        <GenerationPreview
          title="Preview"
          generation={followed.data}
          pending={pending}
          original={
            mode === 'library' && item
              ? { url: item.signed_url, alt: item.name }
              : mode === 'upload' && fileUrl
                ? { url: fileUrl, alt: file?.name ?? 'Product image' }
                : mode === 'link' && imported
                  ? { url: imported.previewUrl, alt: imported.name }
                  : undefined
          }
          empty={<p>Your generated image appears here.</p>}
        />
      </div>
    </div>
  );
}
