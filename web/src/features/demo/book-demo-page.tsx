// Book Demo (/book-demo): what a visitor can use before having an account — the studio's own looping demo video and
// a contact form that reaches the team (POST /contact-requests, stored and mailed like a support ticket).
import { ContactRequest, CONTACT_MESSAGES, createContactRequestRoute } from '@contracts/contact';
import { type FormEvent, useState } from 'react';
import { BrandLink } from '@/components/brand';
import { DemoVideo } from '@/components/demo-video';
import { PageTitle } from '@/components/page-title';
import { Button, ButtonLink } from '@/components/ui/button';
import { Input, Label, Textarea } from '@/components/ui/field';
import { callRoute } from '@/lib/api';
import { signUpPath } from '@/lib/paths';


type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; message: string } | { kind: 'error'; message: string };

function ContactForm() {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const checked = ContactRequest.safeParse({ ...fields, company: fields.company || undefined });
    if (!checked.success) return setStatus({ kind: 'error', message: checked.error.issues[0]?.message ?? 'Please check the form' });
    setStatus({ kind: 'sending' });
    try {
      await callRoute(createContactRequestRoute, { body: checked.data });
      setStatus({ kind: 'sent', message: CONTACT_MESSAGES.sent(checked.data.email) });
    } catch (error) {
      setStatus({ kind: 'error', message: error instanceof Error ? error.message : 'The message was not sent. Please try again.' });
    }
  };
  if (status.kind === 'sent') {
    return (
      <p role="status" className="rounded-lg bg-emerald-50 p-4 text-emerald-900">
        {status.message}
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-describedby="contact-status" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor="contact-name">Name</Label>
          <Input id="contact-name" name="name" autoComplete="name" required maxLength={100} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="contact-company">Shop or company (optional)</Label>
          <Input id="contact-company" name="company" autoComplete="organization" maxLength={100} />
        </div>
      </div>
      <div className="space-y-1">
        <Label htmlFor="contact-email">E-mail</Label>
        <Input id="contact-email" name="email" type="email" autoComplete="email" required maxLength={254} />
      </div>
      <div className="space-y-1">
        <Label htmlFor="contact-message">What would you like to see?</Label>
        <Textarea id="contact-message" name="message" rows={4} required maxLength={2000} placeholder="Our products, how many a month, which marketplaces…" />
      </div>
      <p id="contact-status" role={status.kind === 'error' ? 'alert' : undefined} className="min-h-5 text-sm text-red-700">
        {status.kind === 'error' ? status.message : ''}
      </p>
      <Button type="submit" busy={status.kind === 'sending'}>
        Request a demo
      </Button>
    </form>
  );
}

export default function BookDemoPage() {
  return (
    <div className="min-h-screen bg-slate-50">
      <PageTitle title="Book a demo" />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
          <BrandLink />
          <ButtonLink to={signUpPath} size="sm">
            Get Started FREE
          </ButtonLink>
        </div>
      </header>
      <main id="main" className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
        <section aria-labelledby="demo-video-title">
          <h1 id="demo-video-title" className="text-3xl font-bold tracking-tight text-slate-900">
            See ModelLoop in action
          </h1>
          <p className="mt-3 text-slate-700">One product photo in, a perfectly looping model video out. This clip was made by the studio from one photo.</p>
          <DemoVideo className="mt-6 aspect-[9/16] w-full max-w-xs rounded-2xl bg-slate-900 shadow-lg" />
        </section>
        <section id="contact" aria-labelledby="contact-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="contact-title" className="text-xl font-semibold text-slate-900">
            Book a demo with our team
          </h2>
          <p className="mt-2 text-sm text-slate-700">Tell us about your shop and we will show you the studio on your own products. We answer within 24 hours.</p>
          <div className="mt-6">
            <ContactForm />
          </div>
        </section>
      </main>
    </div>
  );
}
