// The Privacy Policy and the Terms of Service: public pages, linked from the landing page's footer. They say what the
// studio really does with an account's data (the same facts the account settings and "Download my data" show).
import { Link } from 'react-router-dom';
import { BrandLink } from '@/components/brand';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/lib/paths';

interface LegalSection {
  heading: string;
  paragraphs: string[];
}

const PRIVACY: LegalSection[] = [
  {
    heading: 'What we keep',
    paragraphs: [
      'Your e-mail address and sign-in details (held by our identity service, never by us in plain text), your credit balance and every credit transaction, the product photos and portraits you upload, the pictures and videos the studio makes for you, your saved models, your API key names (the keys themselves only as hashes), your webhook endpoints and your support requests.',
      'Payments are taken by Stripe. We keep the payment id, the amount and the credits it bought; we never see or keep card numbers.',
    ],
  },
  {
    heading: 'What we use it for',
    paragraphs: [
      'Only to run the studio for you: to make the pictures and videos you ask for, to keep your balance right, to answer your support requests and to keep the service safe. Your photos are sent to the AI provider that makes the result you ordered, and to no one else. We do not sell data and do not use your photos to train models.',
    ],
  },
  {
    heading: 'Cookies',
    paragraphs: ['The studio stores your sign-in session in your browser. It sets no advertising or tracking cookies.'],
  },
  {
    heading: 'Your rights',
    paragraphs: [
      'Settings → "Download my data" gives you a copy of everything above at any time. Settings → "Delete account" removes your account, your files and your records; the ledger keeps anonymous amounts only, as the law on bookkeeping requires. For anything else, write to us through the contact form.',
    ],
  },
];

const TERMS: LegalSection[] = [
  {
    heading: 'Credits',
    paragraphs: [
      'Credits are bought in advance and never expire. Each operation costs the credits shown before you start it. Work that fails, or a video you cancel before its provider starts, is refunded in credits automatically.',
    ],
  },
  {
    heading: 'Your content',
    paragraphs: [
      'You keep the rights to what you upload and to what the studio makes from it, and you may use the results commercially. Upload only photos you may use; a portrait for a saved model needs the consent of the person shown.',
    ],
  },
  {
    heading: 'Fair use',
    paragraphs: [
      'Per-user limits keep the service fast for everyone (requests per minute, work running at once). Do not use the studio to make content that breaks the law or the AI providers’ content policies; such requests are refused and refunded.',
    ],
  },
  {
    heading: 'AI-made pictures',
    paragraphs: [
      'Every result says which engine made it. A Preview result was made without an AI model and is marked as such. Check results before you publish them: marketplaces have their own rules for product pictures.',
    ],
  },
];

const DOCUMENTS = {
  privacy: { title: 'Privacy Policy', sections: PRIVACY },
  terms: { title: 'Terms of Service', sections: TERMS },
} as const;

export function LegalPage({ document }: { document: keyof typeof DOCUMENTS }) {
  const { title, sections } = DOCUMENTS[document];
  return (
    <div className="min-h-screen bg-white">
      <PageTitle title={title} />
      <header className="border-b border-slate-200">
        <div className="mx-auto flex h-16 max-w-3xl items-center px-4 sm:px-6">
          <BrandLink />
        </div>
      </header>
      <main id="main" className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
        {sections.map((section) => (
          <section key={section.heading} className="mt-8">
            <h2 className="text-lg font-semibold text-slate-900">{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph.slice(0, 40)} className="mt-3 text-slate-700">
                {paragraph}
              </p>
            ))}
          </section>
        ))}
        <p className="mt-12 text-sm text-slate-600">
          <Link to={paths.home} className="font-semibold text-brand-700 hover:underline">
            Back to ModelLoop
          </Link>
        </p>
      </main>
    </div>
  );
}

export const PrivacyPage = () => <LegalPage document="privacy" />;
export const TermsPage = () => <LegalPage document="terms" />;
