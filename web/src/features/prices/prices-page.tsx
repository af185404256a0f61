import type { PricingTier } from '@contracts/api';
import { priceUsd, UPSCALE_RESOLUTIONS, USD_PER_CREDIT } from '@contracts/catalog';
import { upscaleSizeFor } from '@contracts/image-ratios';
import { PageHeader } from '@/components/page-header';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Spinner } from '@/components/ui/spinner';
import { formatUsd } from '@/lib/format';
import { usePricingTiers } from './use-pricing-tiers';
import { paths } from '@/lib/paths';

const COLUMNS: Column<PricingTier>[] = [
  { header: 'Feature', cell: (tier) => tier.display_name, rowHeader: true, className: 'font-medium text-slate-900' },
  { header: 'Description', cell: (tier) => tier.description, className: 'text-slate-700' },
  { header: 'Credits', cell: (tier) => tier.credits_cost, align: 'right', className: 'font-semibold text-slate-900' },
  { header: 'Price', cell: (tier) => formatUsd(priceUsd(tier.credits_cost)), align: 'right', className: 'text-slate-900' },
];

/** How an upscale's size follows its source: each ratio's named size, as image generation makes it (image-ratios.ts). */
function upscaleSizeNote(): string {
  const square = upscaleSizeFor('2k', { width: 1, height: 1 });
  const threeByFour = upscaleSizeFor('2k', { width: 3, height: 4 });
  const { width, height } = UPSCALE_RESOLUTIONS['2k'];
  return (
    `Upscale sizes follow the source's ratio, as image generation sizes them: 2K is ${width}×${height} at 9:16, ` +
    `${square.width}×${square.height} for a square and ${threeByFour.width}×${threeByFour.height} for 3:4. ` +
    'A size no larger than the picture is not offered. The Upscale screen shows the exact size before you pay.'
  );
}

export default function PricesPage() {
  const tiers = usePricingTiers();
  return (
    <div className="space-y-8">
      <PageHeader
        title="Prices"
        description={`What each action costs in credits. One credit is ${formatUsd(USD_PER_CREDIT)}.`}
        actions={<ButtonLink to={paths.billing}>Buy credits</ButtonLink>}
      />
      <Card>
        <CardContent className="pt-5">
          {tiers.isPending ? (
            <Spinner label="Loading prices…" />
          ) : tiers.isError ? (
            <p className="text-slate-700">Prices could not be loaded. Please try again later.</p>
          ) : (
            <DataTable
              rows={tiers.data}
              columns={COLUMNS}
              rowKey={(tier) => tier.id}
              caption="Pricing table"
              scrollLabel="Pricing table"
              className="min-w-[32rem]"
              // A phone gets each action as a card with its credits and price, rather than columns off-screen.
              stacked={{ label: 'Prices' }}
              rowTestId="price"
            />
          )}
          <p data-testid="upscale-size-rule" className="mt-4 text-sm text-slate-700">
            {upscaleSizeNote()}
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
