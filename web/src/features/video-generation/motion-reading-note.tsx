import { MOTION_PRESETS } from '@contracts/catalog';
import { NotRenderedNote } from '@/components/generation/preview-badge';
import { useMotionReading } from './api';

/**
 * Under the motion prompt, before anything is paid: what the preview engine will make of it (the preset, for which
 * words) and what it will not render, or that it renders none of it (generate-video refuses such a prompt, uncharged).
 * A provider's video model follows the words as written: nothing to say then, nor for a preset chosen by its button.
 */
export function MotionReadingNote({ prompt }: { prompt: string }) {
  const reading = useMotionReading(prompt).data;
  const preset = (MOTION_PRESETS as readonly string[]).includes(prompt.trim());
  if (!prompt.trim() || preset || !reading || reading.engine !== 'preview-engine') return null;
  if (!reading.preset) {
    return (
      <p data-testid="motion-reading" role="status" className="mt-2 text-sm text-amber-800">
        The preview engine renders none of this prompt, so it cannot be made (nothing is charged). {reading.help}
      </p>
    );
  }
  return (
    <div data-testid="motion-reading" role="status" className="mt-2 space-y-1 text-sm text-slate-700">
      <p>
        The preview engine makes this as <strong>{reading.preset}</strong>, for “{reading.followed.join('”, “')}”.
      </p>
      <NotRenderedNote items={reading.notRendered} />
    </div>
  );
}
