import type { Generation } from '@contracts/generations';
import { Badge } from '@/components/ui/badge';

/**
 * Under a finished picture: whether it passes each marketplace's measurable rules (lambdas/contracts/marketplace.ts),
 * and for each failing one the rules it breaks with the measured value.
 */
export function ComplianceSummary({ generation }: { generation: Pick<Generation, 'compliance'> }) {
  const report = generation.compliance;
  if (!report) return null;
  return (
    <details data-testid="compliance-report" className="rounded-lg border border-slate-200 p-3 text-sm">
      <summary className="cursor-pointer font-medium text-slate-800">
        Marketplace check · {report.width}×{report.height} {report.format.toUpperCase()}
        {/* The file says it was made with AI (IPTC DigitalSourceType in its XMP): said in words, not the IPTC term. */}
        {report.digitalSourceType ? ' · AI provenance recorded (IPTC)' : ''}
      </summary>
      <ul className="mt-2 space-y-2">
        {report.marketplaces.map((market) => (
          <li key={market.marketplace} data-testid={`compliance-${market.marketplace}`}>
            <div className="flex items-center gap-2">
              <Badge tone={market.pass ? 'success' : 'danger'}>{market.pass ? 'Pass' : 'Fail'}</Badge>
              <span className="font-medium text-slate-900">{market.name}</span>
            </div>
            {market.pass ? null : (
              <ul className="ml-4 mt-1 list-disc text-slate-700">
                {market.rules
                  .filter((rule) => !rule.pass)
                  .map((rule) => (
                    <li key={rule.id} title={rule.source}>
                      {rule.label}: measured {String(rule.measured)}
                    </li>
                  ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
