import { Image as ImageIcon } from 'lucide-react';
import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ImageGenerationPage() {
  return (
    <ScreenPlaceholder
      title="Image Generation"
      description="Put your product on an AI model. 1 credit per image."
      icon={ImageIcon}
      panels={[
        { title: 'Settings', description: 'Product image, product type, model description, camera zoom and image size.' },
        { title: 'Preview', description: 'Your generated image appears here.' },
      ]}
    />
  );
}
