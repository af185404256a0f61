import { Users } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { PlaceholderPanel } from '@/components/placeholder-panel';

export default function CommunityPage() {
  return (
    <>
      <PageHeader title="Community" description="Share results and tips with other sellers." />
      <PlaceholderPanel icon={Users} title="Coming soon">
        The ModelLoop community is on its way.
      </PlaceholderPanel>
    </>
  );
}
