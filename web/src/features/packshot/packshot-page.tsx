import { MARKETPLACES, MARKETPLACE_NAMES, PACKSHOT_PRESETS, type Marketplace } from '@contracts/marketplace';
import { generatePackshotRoute } from '@contracts/packshots';
import { Store } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { CostFooter } from '@/components/generation/cost-footer';
import { GenerationPreview } from '@/components/generation/generation-preview';
import { ImageSourcePicker, useChoicePreview } from '@/components/generation/image-source-picker';
import { useImageOperation } from '@/components/generation/use-image-operation';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatCredits as credits } from '@/lib/format';
import { useTierCost } from '@/features/prices';

/**
 * Packshot (/studio/generate/packshot): a product photo (an upload, a library item's picture or a past result) cut
 * out and placed on a marketplace's ground at its size, fill and format; the result shows its marketplace check.
 */
export default function PackshotPage() {
  const operation = useImageOperation(generatePackshotRoute, 'Packshot Failed');
  const [marketplace, setMarketplace] = useState<Marketplace>('amazon');
  const [shadow, setShadow] = useState(false);
  const [background, setBackground] = useState('#ffffff');
  const original = useChoicePreview(operation.choice);
  const cost = useTierCost()('packshot');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void operation.run({ marketplace, shadow, background }, cost, `You need at least ${credits(cost)} to make a packshot`);
  };

  return (
    <div>
      <PageHeader title="Packshot" description="Your product cut out onto a marketplace-ready ground, at the marketplace's size, fill and format." />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardContent className="pt-5">
            <form onSubmit={onSubmit} className="space-y-5" noValidate>
              <ImageSourcePicker value={operation.choice} onChange={operation.choose} library />
              <fieldset>
                <legend className="mb-1.5 block text-sm font-medium text-slate-800">Marketplace</legend>
                <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                  {MARKETPLACES.map((name) => (
                    <label
                      key={name}
                      className={cn(
                        'flex cursor-pointer flex-col items-center rounded-lg border-2 px-2 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                        marketplace === name ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:border-slate-300',
                      )}
                    >
                      <input type="radio" name="marketplace" value={name} className="sr-only" checked={marketplace === name} onChange={() => setMarketplace(name)} />
                      <span className="font-semibold text-slate-900">{MARKETPLACE_NAMES[name]}</span>
                      <span className="text-xs text-slate-600">
                        {PACKSHOT_PRESETS[name].width}×{PACKSHOT_PRESETS[name].height} {PACKSHOT_PRESETS[name].format.toUpperCase()}
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="flex flex-wrap items-center gap-6 text-sm text-slate-800">
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={shadow} onChange={(event) => setShadow(event.target.checked)} /> Soft contact shadow
                </label>
                <label className="flex items-center gap-2">
                  Background <input type="color" value={background} onChange={(event) => setBackground(event.target.value)} aria-label="Background colour" />
                </label>
              </div>
              <CostFooter cost={cost} balance={operation.credits} label="Make packshot" icon={Store} busy={operation.working} />
            </form>
          </CardContent>
        </Card>
        <GenerationPreview
          title="Result"
          generation={operation.generation}
          pending={operation.pending}
          original={original}
          empty={<p>Upload a product photo or pick one of your pictures; the packshot and its marketplace check appear here.</p>}
        />
      </div>
    </div>
  );
}
