import { CreateTicketRequest, SUPPORT_MESSAGE_MAX_LENGTH, SUPPORT_MESSAGES, SUPPORT_REPLY_HOURS, SUPPORT_SUBJECT_MAX_LENGTH, type Ticket } from '@contracts/support';
import { BookOpen, Clock, Code2, HelpCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { FaqAccordion } from '@/components/ui/accordion';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label, Textarea } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { useUser } from '@/lib/session-context';
import { paths } from '@/lib/paths';
import { useCreateTicket, useTickets } from './api';

/** Each help card opens a real page: the guides, the API reference, the FAQ below. */
const HELP_CARDS = [
  { icon: BookOpen, title: 'Guides', text: 'Uploading products, on-model images, looping videos, batches and credits, step by step.', to: paths.supportGuides },
  { icon: Code2, title: 'API reference', text: 'Keys, the public API with copy-ready examples, webhooks and the OpenAPI document.', to: paths.api },
  { icon: HelpCircle, title: 'FAQ', text: 'Answers to the questions sellers ask most.', to: `${paths.support}#support-faq` },
];

const QUESTIONS = [
  { question: 'Why did my generation fail?', answer: 'Failed generations are refunded automatically. Try a sharper photo without recognizable people, or another motion prompt.' },
  { question: 'Do my credits expire?', answer: 'No. Credits are prepaid and never expire.' },
  { question: 'Which image formats can I upload?', answer: 'JPEG, PNG and WebP. Clothing images can be up to 12MB, video source images up to 6MB.' },
  { question: 'Can I get a refund?', answer: 'Yes, within 7 days of purchase if the credits are unused.' },
];

const STATUS_TONES = { open: 'warning', answered: 'success', closed: 'neutral' } as const;
const STATUS_LABELS = { open: 'Open', answered: 'Answered', closed: 'Closed' } as const;

export default function SupportPage() {
  const user = useUser();
  const [email, setEmail] = useState(user.email);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const ids = { email: useId(), subject: useId(), message: useId() };
  const create = useCreateTicket();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = CreateTicketRequest.safeParse({ email, subject, message });
    if (!checked.success) return void toast.error('Error', { description: checked.error.issues[0]?.message });
    create.mutate(checked.data, {
      onSuccess: (ticket) => {
        toast.success('Message sent', { description: SUPPORT_MESSAGES.sent(ticket.email) });
        setSubject('');
        setMessage('');
      },
      onError: (error) => toast.error('Message not sent', { description: error.message }),
    });
  };

  return (
    <div className="space-y-8">
      <PageHeader title="Support" description="Questions, problems or ideas? We're here to help." />
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <Card>
          <CardHeader>
            <CardTitle>Contact us</CardTitle>
            <CardDescription className="flex items-center gap-2">
              <Clock className="h-4 w-4" aria-hidden="true" /> We reply within {SUPPORT_REPLY_HOURS} hours.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} className="space-y-4">
              <div>
                <Label htmlFor={ids.email}>Email</Label>
                <Input id={ids.email} type="email" required autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} aria-describedby={`${ids.email}-hint`} />
                <p id={`${ids.email}-hint`} className="mt-1 text-xs text-slate-600">
                  We reply to your account's address ({user.email}); another address is passed on as a contact.
                </p>
              </div>
              <div>
                <Label htmlFor={ids.subject}>Subject</Label>
                <Input id={ids.subject} required value={subject} onChange={(event) => setSubject(event.target.value)} maxLength={SUPPORT_SUBJECT_MAX_LENGTH} />
              </div>
              <div>
                <Label htmlFor={ids.message}>Message</Label>
                <Textarea id={ids.message} required value={message} onChange={(event) => setMessage(event.target.value)} rows={6} maxLength={SUPPORT_MESSAGE_MAX_LENGTH} />
              </div>
              <Button type="submit" busy={create.isPending}>
                Send message
              </Button>
            </form>
          </CardContent>
        </Card>
        <section aria-labelledby="help-title" className="space-y-4">
          <h2 id="help-title" className="text-lg font-semibold text-slate-900">
            Help resources
          </h2>
          {HELP_CARDS.map((card) => (
            <Card key={card.title} className="flex gap-4 p-5">
              <card.icon className="h-6 w-6 shrink-0 text-brand-600" aria-hidden="true" />
              <div>
                <h3 className="font-semibold text-slate-900">
                  <Link to={card.to} className="hover:underline">
                    {card.title}
                  </Link>
                </h3>
                <p className="mt-1 text-sm text-slate-700">{card.text}</p>
              </div>
            </Card>
          ))}
        </section>
      </div>
      <YourRequests />
      <section id="support-faq" aria-labelledby="support-faq-title" className="scroll-mt-20">
        <h2 id="support-faq-title" className="mb-4 text-lg font-semibold text-slate-900">
          Frequently asked questions
        </h2>
        <FaqAccordion items={QUESTIONS} />
      </section>
    </div>
  );
}

/** "Your requests": every ticket the seller sent, newest first, with its status. */
function YourRequests() {
  const tickets = useTickets();
  return (
    <section aria-labelledby="your-requests-title">
      <h2 id="your-requests-title" className="mb-4 text-lg font-semibold text-slate-900">
        Your requests
      </h2>
      <Card>
        <CardContent className="pt-5">
          {tickets.isPending ? (
            <Spinner label="Loading your requests…" />
          ) : tickets.isError ? (
            <p className="text-sm text-slate-700">Failed to load your support requests</p>
          ) : tickets.data.length === 0 ? (
            <p className="text-sm text-slate-700">No requests yet. Send us a message above and it appears here with its status.</p>
          ) : (
            <ul className="divide-y divide-slate-100" aria-label="Your requests">
              {tickets.data.map((ticket) => (
                <TicketRow key={ticket.id} ticket={ticket} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function TicketRow({ ticket }: { ticket: Ticket }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-3">
      <div className="min-w-0 flex-1">
        <p className="break-words font-medium text-slate-900">{ticket.subject}</p>
        <p className="text-xs text-slate-600">
          {formatDateTime(ticket.created_at)} · reply to <span className="break-all">{ticket.email}</span>
        </p>
        {ticket.mail_status === 'failed' && <p className="text-xs text-amber-700">Stored, but our mail to the support team failed: we are looking into it.</p>}
      </div>
      <Badge tone={STATUS_TONES[ticket.status]}>{STATUS_LABELS[ticket.status]}</Badge>
    </li>
  );
}
