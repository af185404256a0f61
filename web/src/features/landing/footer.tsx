import { Link } from 'react-router-dom';
import { BrandLink } from '@/components/brand';
import { demoContactPath, paths } from '@/lib/paths';

// Only links to pages that exist: the studio's screens (a visitor signs in first), the demo page with its contact
// form, the guides and the legal pages.
const COLUMNS = [
  {
    title: 'Product',
    links: [
      { label: 'AI Image Generation', to: paths.imageGeneration },
      { label: 'AI Video Generation', to: paths.videoGeneration },
      { label: 'Fashion Model Generator', to: paths.models },
      { label: 'Batch Generation', to: paths.batchGeneration },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Book a Demo', to: paths.demo },
      { label: 'Contact', to: demoContactPath },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Help Center', to: paths.support },
      { label: 'Tutorials', to: paths.supportGuides },
      { label: 'API Documentation', to: paths.api },
      { label: 'Community', to: paths.community },
    ],
  },
];
const LEGAL = [
  { label: 'Privacy Policy', to: paths.privacy },
  { label: 'Terms of Service', to: paths.terms },
];

function FooterLink({ label, to }: { label: string; to: string }) {
  return (
    <Link to={to} className="rounded-sm text-slate-300 hover:text-white">
      {label}
    </Link>
  );
}

export function Footer() {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="grid gap-10 md:grid-cols-4">
          <div className="md:col-span-1">
            <BrandLink tone="light" />
            <p className="mt-4 text-sm">Product photos to on-model images and perfectly looping videos.</p>
          </div>
          {COLUMNS.map((column) => (
            <nav key={column.title} aria-label={column.title}>
              <h2 className="text-sm font-semibold text-white">{column.title}</h2>
              <ul className="mt-4 space-y-3 text-sm">
                {column.links.map((link) => (
                  <li key={link.label}>
                    <FooterLink {...link} />
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-12 flex flex-col gap-4 border-t border-slate-700 pt-8 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p suppressHydrationWarning>© {new Date().getFullYear()} ModelLoop. All rights reserved.</p>
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-6">
              {LEGAL.map((link) => (
                <li key={link.label}>
                  <FooterLink {...link} />
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
