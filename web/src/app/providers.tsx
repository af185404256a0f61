// Loaded lazily with the first screen that needs a session: config.json, Amplify, React Query and the session state.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { bootAuth, currentSessionUser, onAuthEvent, signOutHere } from '@/lib/auth';
import { SessionContext, type Session, type SessionState } from '@/lib/session-context';
import { useLiveUpdates } from '@/lib/use-live-updates';
import { paths } from '@/lib/paths';
import { ResultExtrasContext, type ResultExtrasProps } from '@/components/generation/result-extras';

const FinishedWorkToasts = lazy(() => import('./finished-work-toasts'));
const ResultPublishing = lazy(() => import('@/features/shops/result-publishing'));

/** "Publish to Shopify" on every finished result's card, on a deployment that publishes to Shopify (config.json). */
function ShopifyResultExtras(props: ResultExtrasProps) {
  return (
    <Suspense fallback={null}>
      <ResultPublishing {...props} />
    </Suspense>
  );
}

const SESSION_CHECK_INTERVAL_MS = 30_000;
/** Renew the tokens this long before they expire. */
const REFRESH_AHEAD_SECONDS = 5 * 60;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 15_000, retry: 1, refetchOnWindowFocus: true },
  },
});

export default function AppProviders() {
  const config = use(bootAuth());
  const navigate = useNavigate();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const userIdRef = useRef<string | undefined>(undefined);
  const expiresAtRef = useRef<number | undefined>(undefined);
  useLiveUpdates(queryClient, config, state.status === 'signedIn' ? state.user.userId : undefined);

  const refresh = useCallback(async (forceRefresh = false) => {
    const user = await currentSessionUser({ forceRefresh });
    if (userIdRef.current && userIdRef.current !== user?.userId) queryClient.clear();
    userIdRef.current = user?.userId;
    expiresAtRef.current = user?.expiresAt;
    setState((previous) =>
      user ? { status: 'signedIn', user } : previous.status === 'signedOut' ? previous : { status: 'signedOut' },
    );
  }, []);

  useEffect(() => {
    void refresh();
    const stopListening = onAuthEvent((event, message) => {
      if (event === 'redirectFailed') {
        toast.error('Sign In Error', { description: message ?? 'The social sign-in did not complete.' });
      }
      void refresh();
    });
    // Renew the session shortly before it expires, checking about every 30 s.
    const timer = setInterval(() => {
      const expiresAt = expiresAtRef.current;
      if (expiresAt && expiresAt - Date.now() / 1000 < REFRESH_AHEAD_SECONDS) void refresh(true);
    }, SESSION_CHECK_INTERVAL_MS);
    return () => {
      stopListening();
      clearInterval(timer);
    };
  }, [refresh]);

  const signOut = useCallback(async () => {
    // Mark the sign-out first, so the guards of signed-in screens send the visitor home rather than to /auth.
    setState({ status: 'signedOut', afterSignOut: true });
    navigate(paths.home, { replace: true });
    await signOutHere();
    queryClient.clear();
    userIdRef.current = undefined;
    toast.success('Signed out', { description: 'You have been successfully signed out.' });
  }, [navigate]);

  const session = useMemo<Session>(
    () => ({ state, config, signOut, refresh: () => refresh() }),
    [state, config, signOut, refresh],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <SessionContext value={session}>
        <ResultExtrasContext value={config.shopify ? ShopifyResultExtras : null}>
          <Outlet />
        </ResultExtrasContext>
        {state.status === 'signedIn' && (
          <Suspense fallback={null}>
            <FinishedWorkToasts />
          </Suspense>
        )}
      </SessionContext>
    </QueryClientProvider>
  );
}
