import { UPSCALE_RESOLUTIONS } from '@contracts/catalog';
import { UPSCALE_RESOLUTION_NAMES, type UpscaleResolutionName, upscaleAiImageRoute } from '@contracts/generations';
import { Maximize2 } from 'lucide-react';
import { upscaleRefusal, upscaleSizeFor } from '@contracts/image-ratios';
import { useEffect, useState, type FormEvent } from 'react';
import { CostFooter } from '@/components/generation/cost-footer';
import { GenerationPreview } from '@/components/generation/generation-preview';
import { ImageSourcePicker, useChoicePreview, type ImageChoice } from '@/components/generation/image-source-picker';
import { useImageOperation } from '@/components/generation/use-image-operation';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { useExpectedUpscaleSeconds } from '@/lib/expected-wait';
import { formatCredits as credits } from '@/lib/format';
import { useTierCost } from '@/features/prices';

type Size = { width: number; height: number };

/** The chosen picture's pixel size: a result's recorded size, or a picked file's once the browser has read it. */
function useChoiceSize(choice: ImageChoice | undefined): Size | undefined {
  const [fileSize, setFileSize] = useState<{ file: File; size: Size }>();
  const file = choice?.kind === 'file' ? choice.file : undefined;
  useEffect(() => {
    if (!file) return;
    let current = true;
    createImageBitmap(file)
      .then((bitmap) => {
        if (current) setFileSize({ file, size: { width: bitmap.width, height: bitmap.height } });
        bitmap.close();
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [file]);
  if (choice?.kind === 'result') return choice.generation.width && choice.generation.height ? { width: choice.generation.width, height: choice.generation.height } : undefined;
  return file && fileSize?.file === file ? fileSize.size : undefined;
}

/** Upscale (/studio/generate/upscale): an uploaded image or a past result at exactly 2K, 4K or 8K. */
export default function UpscalePage() {
  const operation = useImageOperation(upscaleAiImageRoute, 'Upscale Failed');
  const [picked, setPicked] = useState<UpscaleResolutionName>('2k');
  const original = useChoicePreview(operation.choice);
  // The size each resolution really makes of the chosen picture: its own ratio kept (upscaleSizeFor, as the server).
  const source = useChoiceSize(operation.choice);
  const sizeOf = (name: UpscaleResolutionName) => (source ? upscaleSizeFor(name, source) : UPSCALE_RESOLUTIONS[name]);
  // A size that would not make the picture larger is disabled, with the server's own reason (it refuses it uncharged).
  const refusalOf = (name: UpscaleResolutionName) => (source ? upscaleRefusal(name, source) : undefined);
  const refused = UPSCALE_RESOLUTION_NAMES.filter((name) => refusalOf(name) !== undefined);
  const resolution = refusalOf(picked) ? (UPSCALE_RESOLUTION_NAMES.find((name) => !refusalOf(name)) ?? picked) : picked;
  const blocked = refusalOf(resolution);
  const tierCost = useTierCost();
  const costOf = (name: UpscaleResolutionName) => tierCost(UPSCALE_RESOLUTIONS[name].tier);
  const cost = costOf(resolution);
  const [cost2k, cost4k, cost8k] = UPSCALE_RESOLUTION_NAMES.map((name) => costOf(name) ?? '…');
  // The measured wait of the size being made (the followed upscale's, else the one chosen), as videos show theirs.
  const working = operation.generation?.params.targetResolution;
  const expectedSeconds = useExpectedUpscaleSeconds(typeof working === 'string' && operation.generation?.status === 'processing' ? working : resolution);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blocked) return;
    void operation.run(
      { targetResolution: resolution },
      cost,
      `You need at least ${credits(cost)} to upscale to ${resolution.toUpperCase()}`,
    );
  };

  return (
    <div>
      <PageHeader title="Upscale" description={`Sharpen an image to 2K, 4K or 8K (${cost2k}, ${cost4k} or ${cost8k} credits).`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardContent className="pt-5">
            <form onSubmit={onSubmit} className="space-y-5" noValidate>
              <ImageSourcePicker value={operation.choice} onChange={operation.choose} />
              <fieldset>
                <legend className="mb-1.5 block text-sm font-medium text-slate-800">Resolution</legend>
                <div className="grid grid-cols-3 gap-2">
                  {UPSCALE_RESOLUTION_NAMES.map((name) => (
                    <label
                      key={name}
                      data-testid={`upscale-option-${name}`}
                      className={cn(
                        'flex flex-col items-center rounded-lg border-2 px-2 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                        refusalOf(name)
                          ? 'cursor-not-allowed border-slate-200 bg-slate-50 opacity-60'
                          : resolution === name
                            ? 'cursor-pointer border-brand-600 bg-brand-50'
                            : 'cursor-pointer border-slate-200 hover:border-slate-300',
                      )}
                    >
                      <input
                        type="radio"
                        name="resolution"
                        value={name}
                        className="sr-only"
                        checked={resolution === name}
                        disabled={refusalOf(name) !== undefined}
                        aria-describedby={refusalOf(name) ? 'upscale-refusals' : undefined}
                        onChange={() => setPicked(name)}
                      />
                      <span className="font-semibold text-slate-900">{name.toUpperCase()}</span>
                      <span className="text-xs text-slate-600" data-testid={`upscale-size-${name}`}>
                        {sizeOf(name).width}×{sizeOf(name).height}
                      </span>
                      <span className="text-xs font-medium text-slate-800">{credits(costOf(name))}</span>
                    </label>
                  ))}
                </div>
                <p className="mt-2 text-xs text-slate-600" data-testid="upscale-size-note">
                  {source
                    ? `Your ${source.width}×${source.height} picture keeps its ratio: ${resolution.toUpperCase()} makes it ${sizeOf(resolution).width}×${sizeOf(resolution).height}.`
                    : 'The size follows your picture’s ratio; the sizes shown are those of a 9:16 picture.'}
                </p>
                {refused.length > 0 && (
                  <ul id="upscale-refusals" data-testid="upscale-refusals" className="mt-2 space-y-1 text-xs font-medium text-amber-800">
                    {refused.map((name) => (
                      <li key={name}>{refusalOf(name)}</li>
                    ))}
                  </ul>
                )}
              </fieldset>
              <CostFooter
                cost={cost}
                balance={operation.credits}
                label={`Upscale to ${resolution.toUpperCase()}`}
                icon={Maximize2}
                busy={operation.working}
                disabled={blocked !== undefined}
              />
            </form>
          </CardContent>
        </Card>
        <GenerationPreview
          title="Result"
          generation={operation.generation}
          pending={operation.pending}
          original={original}
          empty={<p>Upload an image or pick one of your results; the upscaled image appears here.</p>}
          expectedSeconds={operation.pending?.fraction === undefined ? expectedSeconds : undefined}
        />
      </div>
    </div>
  );
}
