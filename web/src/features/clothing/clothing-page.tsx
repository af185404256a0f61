import { Shirt } from 'lucide-react';
import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ClothingPage() {
  return (
    <ScreenPlaceholder
      title="Clothing Manager"
      description="Your library of product photos, ready for generation."
      icon={Shirt}
      panels={[{ title: 'Clothing items', description: 'Upload, search and sort your clothing and jewelry photos.' }]}
    />
  );
}
