import { History } from 'lucide-react';
import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function GenerationsPage() {
  return (
    <ScreenPlaceholder
      title="Generations History"
      description="Every image, video and batch you created."
      icon={History}
      panels={[{ title: 'History', description: 'Type, model, status, credits used and date of each generation.' }]}
    />
  );
}
