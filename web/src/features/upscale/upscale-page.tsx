import { Maximize2 } from 'lucide-react';
import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function UpscalePage() {
  return (
    <ScreenPlaceholder
      title="Upscale"
      description="Sharpen an image to 2K, 4K or 8K (1, 2 or 3 credits)."
      icon={Maximize2}
      panels={[
        { title: 'Image and resolution', description: 'Upload an image or pick one of your results, then choose the resolution.' },
        { title: 'Result', description: 'The original and the upscaled image appear here.' },
      ]}
    />
  );
}
