import { BrandLink } from '@/components/brand';

const COLUMNS = [
  { title: 'Product', links: ['AI Image Generation', 'AI Video Generation', 'Fashion Model Generator', 'Product Avatar'] },
  { title: 'Company', links: ['About', 'Careers', 'Blog', 'Contact'] },
  { title: 'Resources', links: ['Help Center', 'Tutorials', 'API Documentation', 'Community'] },
  { title: 'Integrations', links: ['Shopify', 'WooCommerce', 'Amazon', 'TikTok Shop'] },
];
const LEGAL = ['Privacy Policy', 'Terms of Service', 'Cookie Policy'];

// The footer's links are placeholders: their pages do not exist yet.
function PlaceholderLink({ label }: { label: string }) {
  return (
    <a href="#" className="rounded-sm text-slate-300 hover:text-white" onClick={(event) => event.preventDefault()}>
      {label}
    </a>
  );
}

export function Footer() {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="grid gap-10 md:grid-cols-5">
          <div className="md:col-span-1">
            <BrandLink tone="light" />
            <p className="mt-4 text-sm">Product photos to on-model images and perfectly looping videos.</p>
          </div>
          {COLUMNS.map((column) => (
            <nav key={column.title} aria-label={column.title}>
              <h2 className="text-sm font-semibold text-white">{column.title}</h2>
              <ul className="mt-4 space-y-3 text-sm">
                {column.links.map((link) => (
                  <li key={link}>
                    <PlaceholderLink label={link} />
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
                <li key={link}>
                  <PlaceholderLink label={link} />
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
