import { toast } from 'sonner';

/** Error toasts about an earlier attempt are stale once a later upload has succeeded: they go. */
export function dismissStaleErrors(): void {
  for (const shown of toast.getToasts()) {
    if ('type' in shown && shown.type === 'error') toast.dismiss(shown.id);
  }
}
