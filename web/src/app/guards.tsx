import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session-context';
import { paths } from '@/lib/paths';

/** Signed-in screens: without a session the visitor goes to /auth. */
export function RequireAuth() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <PageSpinner label="Checking your session…" />;
  if (state.status === 'signedOut') {
    if (state.afterSignOut) return <Navigate to={paths.home} replace />;
    return <Navigate to={paths.auth} replace state={{ from: location.pathname + location.hash }} />;
  }
  return <Outlet />;
}

/**
 * Where /auth sends a visitor once signed in: the `next` path it was opened with (e.g. Billing with a landing pack's
 * amount chosen), when it is a path of this site; the dashboard otherwise.
 */
export function nextAfterSignIn(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : paths.dashboard;
}

/** /auth: a signed-in visitor goes to the dashboard (or where `next` says). */
export function GuestOnly() {
  const { state } = useSession();
  const { search } = useLocation();
  if (state.status === 'loading') return <PageSpinner label="Checking your session…" />;
  if (state.status === 'signedIn') return <Navigate to={nextAfterSignIn(search)} replace />;
  return <Outlet />;
}
