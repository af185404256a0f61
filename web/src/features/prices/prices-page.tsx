import { priceUsd, USD_PER_CREDIT } from '@contracts/catalog';
import { PageHeader } from '@/components/page-header';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { formatUsd } from '@/lib/format';
import { usePricingTiers } from './use-pricing-tiers';
import { paths } from '@/lib/paths';

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
            <ScrollRegion label="Pricing table">
              <table className="w-full min-w-[32rem] text-left text-sm">
                <caption className="sr-only">Pricing table</caption>
                <thead className="border-b border-slate-200 text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-medium">Feature</th>
                    <th scope="col" className="py-2 pr-4 font-medium">Description</th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">Credits</th>
                    <th scope="col" className="py-2 text-right font-medium">Price</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {tiers.data.map((tier) => (
                    <tr key={tier.id}>
                      <th scope="row" className="py-3 pr-4 font-medium text-slate-900">{tier.display_name}</th>
                      <td className="py-3 pr-4 text-slate-700">{tier.description}</td>
                      <td className="py-3 pr-4 text-right font-semibold text-slate-900">{tier.credits_cost}</td>
                      <td className="py-3 text-right text-slate-900">{formatUsd(priceUsd(tier.credits_cost))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
