import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session-context';

/** Signed-in screens: without a session the visitor goes to /auth. */
export function RequireAuth() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <PageSpinner label="Checking your session…" />;
  if (state.status === 'signedOut') {
    if (state.afterSignOut) return <Navigate to="/" replace />;
    return <Navigate to="/auth" replace state={{ from: location.pathname + location.hash }} />;
  }
  return <Outlet />;
}

/** /auth: a signed-in visitor goes to the dashboard. */
export function GuestOnly() {
  const { state } = useSession();
  if (state.status === 'loading') return <PageSpinner label="Checking your session…" />;
  if (state.status === 'signedIn') return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
