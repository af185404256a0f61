import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { hasStoredSession, subscribeSessionHint } from '@/lib/session-hint';
import { requestToaster } from '@/lib/toaster-request';
import { paths } from '@/lib/paths';

const isOAuthReturn = () => {
  const params = new URLSearchParams(window.location.search);
  return params.has('code') && params.has('state');
};

/**
 * Whether the visitor is signed in, for the landing page's navigation. A first answer comes from localStorage without
 * loading Amplify; only when that says "signed in" (or a social sign-in redirect lands here) is the auth module
 * loaded to confirm it.
 */
export function useLandingSession(): boolean {
  const hinted = useSyncExternalStore(subscribeSessionHint, hasStoredSession, () => false);
  const [confirmed, setConfirmed] = useState<boolean | undefined>(undefined);
  const navigate = useNavigate();

  useEffect(() => {
    if (!hinted && !isOAuthReturn()) {
      setConfirmed(undefined);
      return;
    }
    let active = true;
    let stopListening: (() => void) | undefined;
    void import('@/lib/auth').then(async (auth) => {
      if (isOAuthReturn()) {
        // The social provider redirected to the site root: Amplify completes the sign-in once configured.
        stopListening = auth.onAuthEvent((event, message) => {
          if (event === 'signedIn') navigate(paths.dashboard, { replace: true });
          if (event === 'redirectFailed') {
            requestToaster();
            void import('sonner').then(({ toast }) =>
              toast.error('Sign In Error', { description: message ?? 'The social sign-in did not complete.' }),
            );
          }
        });
      }
      const user = await auth.currentSessionUser().catch(() => null);
      if (active) setConfirmed(user !== null);
    });
    return () => {
      active = false;
      stopListening?.();
    };
  }, [hinted, navigate]);

  return confirmed ?? hinted;
}
