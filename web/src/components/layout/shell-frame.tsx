import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Menu, X } from 'lucide-react';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { BrandLink } from '@/components/brand';
import { PageSpinner } from '@/components/ui/spinner';
import { AccountMenu } from './account-menu';

interface ShellFrameProps {
  /** The sidebar's navigation; shown beside the content on large screens and in a drawer on small ones. */
  sidebar: ReactNode;
  /** Extra items of the top bar, left of the account menu. */
  topBar?: ReactNode;
}

/** The frame of every signed-in screen: sidebar, top bar with the account menu, and the screen itself. */
export function ShellFrame({ sidebar, topBar }: ShellFrameProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <div className="min-h-screen bg-slate-50">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r border-slate-200 bg-white lg:flex">
        <div className="flex h-16 items-center border-b border-slate-200 px-5">
          <BrandLink />
        </div>
        <div className="flex flex-1 flex-col overflow-y-auto">{sidebar}</div>
      </aside>
      <DialogPrimitive.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50 lg:hidden" />
          <DialogPrimitive.Content
            className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none lg:hidden"
            aria-describedby={undefined}
          >
            <div className="flex h-16 items-center justify-between border-b border-slate-200 px-5">
              <DialogPrimitive.Title className="sr-only">Navigation</DialogPrimitive.Title>
              <BrandLink />
              <DialogPrimitive.Close className="rounded-md p-2 text-slate-600 hover:bg-slate-100" aria-label="Close navigation">
                <X className="h-5 w-5" aria-hidden="true" />
              </DialogPrimitive.Close>
            </div>
            <div className="flex flex-1 flex-col overflow-y-auto">{sidebar}</div>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
      <div className="lg:pl-64">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6">
          <button
            type="button"
            className="rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
            aria-label="Open navigation"
            onClick={() => setDrawerOpen(true)}
          >
            <Menu className="h-5 w-5" aria-hidden="true" />
          </button>
          <div className="flex min-w-0 flex-1 items-center">{topBar}</div>
          <AccountMenu />
        </header>
        <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
