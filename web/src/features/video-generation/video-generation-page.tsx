import { Video } from 'lucide-react';
import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function VideoGenerationPage() {
  return (
    <ScreenPlaceholder
      title="Image to Video Generation"
      description="Turn a product photo into a perfectly looping video. 1 credit per video."
      icon={Video}
      panels={[
        { title: 'Video settings', description: 'Source image, motion prompt, duration, aspect ratio and number of outputs.' },
        { title: 'Results and history', description: 'Your videos, their progress and your recent jobs.' },
      ]}
    />
  );
}
