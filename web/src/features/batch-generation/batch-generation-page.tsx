import { Layers } from 'lucide-react';
import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function BatchGenerationPage() {
  return (
    <ScreenPlaceholder
      title="Batch Generation"
      description="Many photos in one go. 1 credit per camera angle."
      icon={Layers}
      panels={[
        { title: 'Selection and parameters', description: 'Clothing item, prompt, camera angles and backdrop colour.' },
        { title: 'Add to batch', description: 'Add the current selection as a batch entry.' },
        { title: 'Batch summary', description: 'Entries, photo count and total credits.' },
      ]}
    />
  );
}
