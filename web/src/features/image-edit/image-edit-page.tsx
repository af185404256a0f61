import { Wand2 } from 'lucide-react';
import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ImageEditPage() {
  return (
    <ScreenPlaceholder
      title="Edit"
      description="Change an image by describing the edit. 1 credit per edit."
      icon={Wand2}
      panels={[
        { title: 'Image and instructions', description: 'Upload an image or pick one of your results, then describe the edit.' },
        { title: 'Result', description: 'The original and the edited image appear here.' },
      ]}
    />
  );
}
