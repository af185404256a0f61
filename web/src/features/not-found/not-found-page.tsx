import { PageTitle } from '@/components/page-title';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/lib/paths';

export default function NotFoundPage() {
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 px-4 text-center">
      <PageTitle title="Page not found" />
      <p className="text-6xl font-extrabold text-brand-600">404</p>
      <h1 className="text-2xl font-bold text-slate-900">Oops! Page not found</h1>
      <p className="text-slate-700">The page you are looking for does not exist or has moved.</p>
      <ButtonLink to={paths.home}>Return to Home</ButtonLink>
    </main>
  );
}
