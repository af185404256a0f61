import { FaqAccordion } from '@/components/ui/accordion';
import { landingVideoPromise, useExpectedVideoSeconds } from '@/lib/expected-wait';

const QUESTIONS = [
  {
    question: 'How long does it take to generate a video?',
    answer: (promise: string) => `${promise}. You can keep working while it renders and we notify you when it is done.`,
  },
  {
    question: 'What kind of product photos can I upload?',
    answer:
      'Flat lays, hanger shots, ghost mannequins, jewelry shots and photos of models, as JPEG, PNG or WebP. You can also paste a product URL.',
  },
  {
    question: 'What is the perfect-loop guarantee?',
    answer:
      'Every video ends exactly where it begins, so it plays on repeat without a visible jump. We check the seam of every video before it is delivered.',
  },
  {
    question: 'Can I use the images and videos commercially?',
    answer: 'Yes. Commercial use is allowed: use them in your online shop, ads, marketplaces and social posts.',
  },
  {
    question: 'How do credits work?',
    answer:
      'Credits are prepaid at $0.10 each and never expire. No subscription is required. An image costs 1 credit and a video costs 1 credit per output. New accounts get 5 free video credits.',
  },
  {
    question: 'Do I need any technical or design skills?',
    answer: 'No technical skill is needed. Upload a photo, pick a motion style (Pivot, Catwalk, 360 Spin or your own prompt) and download.',
  },
  {
    question: 'What formats do I get?',
    answer: 'Videos are HD looped MP4 files, ready for online shops and short-video platforms. Images download as PNG.',
  },
  {
    question: 'Can I get a refund?',
    answer: 'Yes. If your credits are unused, you can ask for a refund within 7 days of purchase.',
  },
] as const;

export function Faq() {
  const promise = landingVideoPromise(useExpectedVideoSeconds());
  const items = QUESTIONS.map((item) => ({ question: item.question, answer: typeof item.answer === 'string' ? item.answer : item.answer(promise) }));
  return (
    <section id="support" aria-labelledby="faq-title" className="py-20">
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <div className="mb-10 text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Support</p>
          <h2 id="faq-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Frequently asked questions
          </h2>
        </div>
        <FaqAccordion items={items} />
      </div>
    </section>
  );
}
