// A new seller's first hour on the dashboard: the four steps (a product, an on-model photo, a packshot, a video), each
// ticked from the account's own records (GET /first-steps, so it is the same on every device), hidden once all are
// done. The list is read again whenever the history changes (its key is under 'generations', the live resource).
import { FIRST_STEPS, getFirstStepsRoute, type FirstStep } from '@contracts/api';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { callRoute } from '@/lib/api';
import { GENERATIONS_QUERY_ROOT } from '@/lib/generations';
import { paths } from '@/lib/paths';
import { useUser } from '@/lib/session-context';

const STEPS: Record<FirstStep, { title: string; text: string; to: string; action: string }> = {
  product: { title: 'Upload a product', text: 'A flat lay, hanger shot or jewelry photo in your library.', to: paths.clothing, action: 'Open Clothing' },
  'on-model-photo': { title: 'Make an on-model photo', text: 'Your product worn by a model, at the size your shop needs.', to: paths.imageGeneration, action: 'Open Images' },
  packshot: { title: 'Make a packshot', text: 'The product alone on white, ready for Amazon, Zalando or your shop.', to: paths.packshot, action: 'Open Packshot' },
  video: { title: 'Make a video', text: 'A short looping video of your product in motion.', to: paths.videoGeneration, action: 'Open Videos' },
};

export function FirstSteps() {
  const user = useUser();
  const query = useQuery({
    queryKey: [GENERATIONS_QUERY_ROOT, user.userId, 'first-steps'] as const,
    queryFn: () => callRoute(getFirstStepsRoute),
  });
  // Nothing while it loads or if it can't be read: the steps are a guide, not a gate.
  if (!query.data) return null;
  const done = new Set(query.data.done);
  if (FIRST_STEPS.every((step) => done.has(step))) return null;
  return (
    <Card data-testid="first-steps">
      <CardHeader>
        <CardTitle>Your first hour in four steps</CardTitle>
        <CardDescription>
          {done.size} of {FIRST_STEPS.length} done. Each step is ticked as soon as you have done it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol aria-label="First steps" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {FIRST_STEPS.map((step, index) => {
            const { title, text, to, action } = STEPS[step];
            const isDone = done.has(step);
            return (
              <li key={step} data-step={step} data-done={isDone} className={isDone ? 'rounded-lg border border-emerald-200 bg-emerald-50 p-4' : 'rounded-lg border border-slate-200 p-4'}>
                <p className="flex items-center gap-2 font-semibold text-slate-900">
                  {isDone ? (
                    <CheckCircle2 className="h-5 w-5 shrink-0 text-emerald-700" aria-hidden="true" />
                  ) : (
                    <span className="flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs text-white" aria-hidden="true">
                      {index + 1}
                    </span>
                  )}
                  {title}
                  <span className="sr-only">{isDone ? ' (done)' : ' (to do)'}</span>
                </p>
                <p className="mt-1 text-sm text-slate-700">{isDone ? 'Done.' : text}</p>
                {!isDone && (
                  <Link to={to} className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
                    {action} <ArrowRight className="h-4 w-4" aria-hidden="true" />
                  </Link>
                )}
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
