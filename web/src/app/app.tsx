import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { LandingPage } from '@/features/landing/landing-page';
import { requestToaster, subscribeToasterRequest, toasterRequested } from '@/lib/toaster-request';
import { BootErrorBoundary } from './boot-error-boundary';
import { ScrollToTop } from './scroll-to-top';
import { paths } from '@/lib/paths';

// The landing page is in the first chunk; everything else (the other screens' route table, Amplify, React Query, the
// studio, the toasts) loads on demand.
const AppToaster = lazy(() => import('@/components/toaster'));
const AppRoutes = lazy(() => import('./app-routes'));

export function App() {
  return (
    <BrowserRouter>
      <AppContent />
    </BrowserRouter>
  );
}

/** Everything inside the router: the browser's router here, a static one when the landing page is prerendered. */
export function AppContent() {
  return (
    <>
      <ScrollToTop />
      <BootErrorBoundary>
        <Suspense fallback={<PageSpinner />}>
          <Routes>
            <Route path={paths.home} element={<LandingPage />} />
            <Route path="*" element={<AppRoutes />} />
          </Routes>
        </Suspense>
      </BootErrorBoundary>
      <ToasterWhenWanted />
    </>
  );
}

/** The toast container, from the first screen other than the landing page on (or when the landing page asks). */
function ToasterWhenWanted() {
  const { pathname } = useLocation();
  const wanted = useSyncExternalStore(subscribeToasterRequest, toasterRequested, () => false);
  useEffect(() => {
    if (pathname !== paths.home) requestToaster();
  }, [pathname]);
  if (!wanted && pathname === paths.home) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}
