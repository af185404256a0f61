import { useEffect } from 'react';
import { toast } from 'sonner';

/**
 * Shows the catalogue's load-failure toast once per failure. The id keeps one toast when several components read the
 * same failed query.
 */
export function useLoadErrorToast(error: unknown, title: string, description: string): void {
  useEffect(() => {
    if (error) toast.error(title, { id: `load-error:${description}`, description });
  }, [error, title, description]);
}
