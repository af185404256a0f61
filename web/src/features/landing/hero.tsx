import { ArrowRight, Play } from '@/components/first-load-icons';
import { ButtonLink } from '@/components/ui/button';
import { DEMO_PAIRS } from '@/lib/demo-pairs';
import { landingVideoPromise, useExpectedVideoSeconds } from '@/lib/expected-wait';
import { paths, signUpPath } from '@/lib/paths';

export function Hero() {
  const pair = DEMO_PAIRS[0]!;
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:py-24">
        <div>
          <p className="mb-4 inline-flex rounded-full bg-brand-100 px-3 py-1 text-sm font-semibold text-brand-800">
            AI model videos for fashion & jewelry sellers
          </p>
          <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
            Turn one product photo into a <span className="text-brand-700">perfectly looping</span> model video
          </h1>
          <p className="mt-5 text-lg text-slate-700">
            Upload a flat lay, hanger shot, ghost mannequin or model photo. ModelLoop creates on-model images and HD looped
            MP4 videos for your online shop and short-video platforms. {landingVideoPromise(useExpectedVideoSeconds())}.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <ButtonLink to={signUpPath} size="lg">
              Get Started FREE <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </ButtonLink>
            <ButtonLink to={paths.demo} size="lg" variant="outline">
              <Play className="h-4 w-4" aria-hidden="true" /> Book Demo
            </ButtonLink>
          </div>
          <p className="mt-4 text-sm text-slate-600">5 free video credits · No credit card required · Commercial use allowed</p>
        </div>
        <div className="grid grid-cols-2 gap-4">
          <figure className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
            <img src={pair.input} alt={pair.inputAlt} width={600} height={800} className="aspect-[3/4] w-full object-cover" />
            <figcaption className="px-4 py-2 text-sm font-semibold text-slate-700">Before</figcaption>
          </figure>
          <figure className="overflow-hidden rounded-2xl border border-brand-200 bg-white shadow-lg ring-2 ring-brand-600/20">
            <img src={pair.output} alt={pair.outputAlt} width={600} height={800} className="aspect-[3/4] w-full object-cover" />
            <figcaption className="px-4 py-2 text-sm font-semibold text-brand-700">After</figcaption>
          </figure>
        </div>
      </div>
    </section>
  );
}
