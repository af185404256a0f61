import { Menu, X } from '@/components/first-load-icons';
import { useState } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { BrandLink } from '@/components/brand';
import { useLandingSession } from './use-landing-session';
import { paths, signUpPath } from '@/lib/paths';

const ANCHORS = [
  { href: '#product', label: 'Product' },
  { href: '#pricing', label: 'Pricing' },
  { href: '#support', label: 'Support' },
];

export function LandingNav() {
  const signedIn = useLandingSession();
  // Below md the anchors (and Book Demo) move into a menu, so the header never grows wider than a phone.
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-4 sm:px-6">
        <BrandLink />
        <ul className="hidden items-center gap-8 text-sm font-medium text-slate-700 md:flex">
          {ANCHORS.map((anchor) => (
            <li key={anchor.href}>
              <a href={anchor.href} className="rounded-md hover:text-brand-700">
                {anchor.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="flex min-w-0 items-center gap-2">
          {signedIn ? (
            <>
              <ButtonLink to={paths.videoGeneration} variant="ghost" size="sm" className="sm:h-10 sm:px-4">
                Studio
              </ButtonLink>
              <ButtonLink to={paths.dashboard} size="sm" className="sm:h-10 sm:px-4">
                Dashboard
              </ButtonLink>
            </>
          ) : (
            <>
              {/* The wrapper hides it on phones: the button's own inline-flex would win over a `hidden` beside it. */}
              <span className="hidden sm:inline-flex">
                <ButtonLink to={paths.demo} variant="outline" size="sm" className="sm:h-10 sm:px-4">
                  Book Demo
                </ButtonLink>
              </span>
              <ButtonLink to={signUpPath} size="sm" className="whitespace-nowrap sm:h-10 sm:px-4">
                Get Started FREE
              </ButtonLink>
            </>
          )}
          <button
            type="button"
            className="rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="landing-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X className="h-5 w-5" aria-hidden="true" /> : <Menu className="h-5 w-5" aria-hidden="true" />}
          </button>
        </div>
      </nav>
      {menuOpen && (
        <div id="landing-menu" className="border-t border-slate-200 bg-white px-4 pb-4 md:hidden">
          <ul className="flex flex-col py-2 text-base font-medium text-slate-800">
            {ANCHORS.map((anchor) => (
              <li key={anchor.href}>
                <a href={anchor.href} className="block rounded-md px-2 py-3 hover:bg-slate-100" onClick={() => setMenuOpen(false)}>
                  {anchor.label}
                </a>
              </li>
            ))}
          </ul>
          {!signedIn && (
            <span className="block sm:hidden">
              <ButtonLink to={paths.demo} variant="outline" className="w-full">
                Book Demo
              </ButtonLink>
            </span>
          )}
        </div>
      )}
    </header>
  );
}
