import { Sparkles } from 'lucide-react';
import { COMING_SOON_TOOLS, comingSoonMessage } from '@/components/layout/coming-soon-tools';
import { PageHeader } from '@/components/page-header';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/lib/paths';

export default function ComingSoonPage() {
  return (
    <>
      <PageHeader title="Coming Soon" description="These tools are on their way to ModelLoop." />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {COMING_SOON_TOOLS.map((tool) => (
          <li key={tool}>
            <Card className="flex h-full items-start gap-3 p-5">
              <Sparkles className="h-5 w-5 shrink-0 text-brand-600" aria-hidden="true" />
              <div>
                <h2 className="font-semibold text-slate-900">{tool}</h2>
                <p className="mt-1 text-sm text-slate-700">{comingSoonMessage(tool)}</p>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      <ButtonLink to={paths.generate} className="mt-8">
        Try Image to Video Generation
      </ButtonLink>
    </>
  );
}
