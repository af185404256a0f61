import { ButtonLink } from '@/components/ui/button';
import { BrandLink } from '@/components/brand';
import { useLandingSession } from './use-landing-session';

const ANCHORS = [
  { href: '#product', label: 'Product' },
  { href: '#pricing', label: 'Pricing' },
  { href: '#support', label: 'Support' },
];

export function LandingNav() {
  const signedIn = useLandingSession();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
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
        <div className="flex items-center gap-2">
          {signedIn ? (
            <>
              <ButtonLink to="/studio/generate/video-generation" variant="ghost" size="sm" className="sm:h-10 sm:px-4">
                Studio
              </ButtonLink>
              <ButtonLink to="/dashboard" size="sm" className="sm:h-10 sm:px-4">
                Dashboard
              </ButtonLink>
            </>
          ) : (
            <>
              <ButtonLink to="/auth" variant="outline" size="sm" className="hidden sm:inline-flex sm:h-10 sm:px-4">
                Book Demo
              </ButtonLink>
              <ButtonLink to="/auth" size="sm" className="sm:h-10 sm:px-4">
                Get Started FREE
              </ButtonLink>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
