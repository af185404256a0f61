import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label, what }: { text: string; label: string; what: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Copied', { description: `${what} is on your clipboard.` });
    } catch {
      toast.error('Error', { description: 'It could not be copied. Select it and copy it by hand.' });
    }
  };
  return (
    <Button variant="outline" size="sm" aria-label={label} onClick={() => void copy()}>
      <Copy className="h-4 w-4" aria-hidden="true" /> Copy
    </Button>
  );
}
