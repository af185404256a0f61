import { EVERY_ACCOUNT_FEATURES, LANDING_PACKS, packAllowance, USD_PER_CREDIT } from '@contracts/landing';
import {
  Check,
  Clock,
  Film,
  ImageIcon,
  LoopIcon,
  MessageSquareQuote,
  Play,
  ShieldCheck,
  Sparkles,
  Upload,
  UserRound,
  Wand2,
  X,
} from '@/components/first-load-icons';
import { useState } from 'react';
import { COMING_SOON_TOOLS } from '@/components/layout/coming-soon-tools';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { formatUsd } from '@/lib/format';
import { landingVideoPromise, useExpectedVideoSeconds } from '@/lib/expected-wait';
import { useLandingSession } from './use-landing-session';
import { usePublicPricingTiers } from '@/lib/public-pricing-tiers';
import { DemoVideo } from '@/components/demo-video';
import { billingWithCredits, signUpPath, signUpThen } from '@/lib/paths';

function SectionHeading({ id, eyebrow, title, lead }: { id: string; eyebrow: string; title: string; lead?: string }) {
  return (
    <div className="mx-auto mb-12 max-w-2xl text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        {title}
      </h2>
      {lead && <p className="mt-4 text-lg text-slate-700">{lead}</p>}
    </div>
  );
}

const OLD_WAY = [
  'Book models, a photographer and a studio for every collection',
  'Days of shooting, retouching and video editing',
  'Hundreds of dollars per product before it even goes live',
  'Static photos that shoppers scroll straight past',
];
const NEW_WAY = [
  'Upload one product photo: flat lay, hanger, ghost mannequin or model shot',
  'On-model images and videos without a photo shoot',
  'Pay-as-you-go credits that never expire, from $0.10 each',
  'HD looped MP4s with a perfect-loop guarantee that stop the scroll',
];

export function Comparison() {
  return (
    <section aria-labelledby="comparison-title" className="py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="comparison-title" eyebrow="Why ModelLoop" title="The old way versus the ModelLoop way" />
        <div className="grid gap-6 md:grid-cols-2">
          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-8">
            <h3 className="text-xl font-semibold text-slate-900">The old way</h3>
            <ul className="mt-6 space-y-4">
              {OLD_WAY.map((item) => (
                <li key={item} className="flex gap-3 text-slate-700">
                  <X className="mt-0.5 h-5 w-5 shrink-0 text-red-600" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-2xl border border-brand-200 bg-brand-50 p-8">
            <h3 className="text-xl font-semibold text-slate-900">The ModelLoop way</h3>
            <ul className="mt-6 space-y-4">
              {NEW_WAY.map((item) => (
                <li key={item} className="flex gap-3 text-slate-800">
                  <Check className="mt-0.5 h-5 w-5 shrink-0 text-emerald-700" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}

const STEPS = [
  {
    icon: Upload,
    title: 'Upload an image or paste a product URL',
    text: 'Any product photo works: flat lays, hanger shots, ghost mannequins, jewelry or model photos.',
  },
  {
    icon: Wand2,
    title: 'Choose a motion style',
    text: 'Pick a preset (Pivot, Catwalk or 360 Spin) or describe the motion you want in a custom prompt.',
  },
  {
    icon: Film,
    title: 'Download',
    text: 'Get an HD looped MP4 ready for your online shop and short-video platforms.',
  },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="bg-slate-50 py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="how-title" eyebrow="How it works" title="Three steps from photo to video" />
        <ol className="grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
              <div className="flex items-center gap-3">
                <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white">
                  {index + 1}
                </span>
                <step.icon className="h-6 w-6 text-brand-700" aria-hidden="true" />
              </div>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

const OFFERINGS = [
  { icon: ImageIcon, title: 'AI Image Generation', text: 'On-model photos from flat lays, hanger shots, ghost mannequins or model photos.' },
  { icon: UserRound, title: 'AI Fashion Model Generator', text: 'Choose the model that fits your brand and dress them in your products.' },
  { icon: MessageSquareQuote, title: 'Product Avatar', text: 'Talking, UGC-style ads with lip sync and an auto-generated script.' },
  { icon: Film, title: 'AI Video Generation', text: 'Short looping product videos from a single still image.' },
];
/** An offering the studio does not sell yet carries the "Soon" the studio's sidebar shows for it. */
const comingSoon = (title: string) => (COMING_SOON_TOOLS as readonly string[]).includes(title);
const CLAIMS = [
  { icon: Clock, title: 'Ready in minutes', text: (promise: string) => `${promise}, and we notify you when yours is done.` },
  { icon: LoopIcon, title: 'Perfect-loop guarantee', text: 'Every video loops seamlessly, frame to frame, with no visible jump.' },
  { icon: ShieldCheck, title: 'Commercial use allowed', text: 'Use everything you create in your shop, ads and social posts.' },
  { icon: Sparkles, title: 'No technical skill needed', text: 'If you can upload a photo, you can make a product video.' },
];

export function Features() {
  const promise = landingVideoPromise(useExpectedVideoSeconds());
  return (
    <section id="product" aria-labelledby="features-title" className="py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-title"
          eyebrow="Product"
          title="Everything you need to sell with motion"
          lead="Four tools for e-commerce and fashion sellers, marketers and agencies."
        />
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {OFFERINGS.map((feature) => (
            <li key={feature.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <feature.icon className="h-8 w-8 text-brand-700" aria-hidden="true" />
              <h3 className="mt-4 flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                {feature.title}
                {comingSoon(feature.title) && <Badge data-testid="coming-soon-badge">Soon</Badge>}
              </h3>
              <p className="mt-2 text-sm text-slate-700">{feature.text}</p>
            </li>
          ))}
        </ul>
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {CLAIMS.map((claim) => (
            <li key={claim.title} className="flex gap-3 rounded-2xl bg-slate-50 p-6">
              <claim.icon className="h-6 w-6 shrink-0 text-emerald-700" aria-hidden="true" />
              <div>
                <h3 className="font-semibold text-slate-900">{claim.title}</h3>
                <p className="mt-1 text-sm text-slate-700">{typeof claim.text === 'string' ? claim.text : claim.text(promise)}</p>
              </div>
            </li>
          ))}
        </ul>
        <figure className="mx-auto mt-16 max-w-3xl rounded-2xl bg-slate-900 p-8 text-white shadow-xl sm:p-10">
          <blockquote className="text-xl font-medium leading-relaxed sm:text-2xl">
            “We replaced our static product shots with ModelLoop videos and our conversion rate rose from 2.5% to 4.1% in the
            first month.”
          </blockquote>
          <figcaption className="mt-6 flex items-center gap-4">
            <span className="flex items-baseline gap-2 rounded-xl bg-white/10 px-4 py-2 font-bold">
              <span className="text-slate-300 line-through decoration-2">2.5%</span>
              <span aria-hidden="true">→</span>
              <span className="text-emerald-300">4.1%</span>
            </span>
            <span className="text-sm text-slate-300">Aisha Verma, founder of an online lehenga boutique</span>
          </figcaption>
        </figure>
      </div>
    </section>
  );
}

/** Where a pack's button leads: Billing with that amount chosen, through sign-up for a visitor without a session. */
function packHref(credits: number, signedIn: boolean): string {
  const billing = billingWithCredits(credits);
  return signedIn ? billing : signUpThen(billing);
}

export function Pricing() {
  const signedIn = useLandingSession();
  // What each pack buys comes from this deployment's prices; the line stays empty (its height kept) until they load.
  const tiers = usePublicPricingTiers();
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-slate-50 py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="pricing-title"
          eyebrow="Pricing"
          title="Pay as you go. Credits never expire."
          lead={`${formatUsd(USD_PER_CREDIT)} per credit. No subscription required.`}
        />
        <ul className="grid gap-6 md:grid-cols-3">
          {LANDING_PACKS.map((pack) => (
            <li
              key={pack.name}
              className={
                pack.popular
                  ? 'relative flex flex-col rounded-2xl border-2 border-brand-600 bg-white p-8 shadow-xl'
                  : 'relative flex flex-col rounded-2xl border border-slate-200 bg-white p-8 shadow-sm'
              }
            >
              {pack.popular && (
                <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
                  Most Popular
                </span>
              )}
              <h3 className="text-lg font-semibold text-slate-900">{pack.name}</h3>
              <p className="mt-4 flex items-baseline gap-1">
                <span className="text-4xl font-extrabold text-slate-900">{formatUsd(pack.usd).replace('.00', '')}</span>
              </p>
              <p className="mt-1 font-medium text-brand-700">{pack.credits} credits</p>
              <p className="mt-2 min-h-5 text-sm text-slate-700">{packAllowance(pack.credits, tiers) ?? '\u00a0'}</p>
              <ul className="mt-6 flex-1 space-y-3 text-sm">
                {pack.features.map((feature) => (
                  <li key={feature} className="flex gap-2 text-slate-800">
                    <Check className="h-5 w-5 shrink-0 text-emerald-700" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
              <ButtonLink to={packHref(pack.credits, signedIn)} variant={pack.popular ? 'primary' : 'outline'} className="mt-8 w-full">
                Get {pack.name}
              </ButtonLink>
            </li>
          ))}
        </ul>
        <p data-testid="every-account" className="mt-8 flex flex-wrap items-center justify-center gap-x-5 gap-y-2 text-sm text-slate-800">
          <span className="font-semibold">Every account:</span>
          {EVERY_ACCOUNT_FEATURES.map((feature) => (
            <span key={feature} className="flex items-center gap-1.5">
              <Check className="h-4 w-4 shrink-0 text-emerald-700" aria-hidden="true" />
              {feature}
            </span>
          ))}
        </p>
      </div>
    </section>
  );
}


export function ClosingCallToAction() {
  const [demo, setDemo] = useState(false);
  return (
    <section aria-labelledby="cta-title" className="bg-gradient-to-br from-brand-700 to-brand-900 py-20 text-white">
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Bring your products to life today
        </h2>
        <p className="mt-4 text-lg text-brand-100">Create your first looping product videos in minutes.</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to={signUpPath} size="lg" variant="outline" className="border-white">
            Generate 5 Videos FREE
          </ButtonLink>
          <Button
            size="lg"
            variant="ghost"
            className="text-white ring-1 ring-white/60 hover:bg-white/10 hover:text-white"
            aria-expanded={demo}
            aria-controls="demo-video"
            onClick={() => setDemo((shown) => !shown)}
          >
            <Play className="h-4 w-4" aria-hidden="true" /> {demo ? 'Hide Demo' : 'Watch Demo'}
          </Button>
        </div>
        {demo && (
          <figure id="demo-video" className="mx-auto mt-8 w-full max-w-xs">
            <DemoVideo className="aspect-[9/16] w-full rounded-2xl bg-brand-900 shadow-lg" />
            <figcaption className="mt-2 text-sm text-brand-100">Made by the studio from one product photo. It loops seamlessly.</figcaption>
          </figure>
        )}
        <ul className="mt-8 flex flex-col justify-center gap-3 text-sm text-brand-100 sm:flex-row sm:gap-8">
          {['No credit card required', '5 videos free', 'Perfect loop guarantee'].map((note) => (
            <li key={note} className="flex items-center justify-center gap-2">
              <Check className="h-4 w-4" aria-hidden="true" />
              {note}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
