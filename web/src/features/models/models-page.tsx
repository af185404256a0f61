import { UserRound } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { PlaceholderPanel } from '@/components/placeholder-panel';

export default function ModelsPage() {
  return (
    <>
      <PageHeader title="Models" description="Your AI fashion models." />
      <PlaceholderPanel icon={UserRound} title="Coming Soon">
        Create and save AI models that match your brand.
      </PlaceholderPanel>
    </>
  );
}
