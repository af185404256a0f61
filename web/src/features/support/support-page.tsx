import { BookOpen, Clock, PlayCircle, Users } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { FaqAccordion } from '@/components/ui/accordion';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label, Textarea } from '@/components/ui/field';
import { useUser } from '@/lib/session-context';
import { paths } from '@/lib/paths';

const HELP_CARDS = [
  { icon: BookOpen, title: 'Documentation', text: 'Guides for uploading products, choosing motion styles and downloading results.' },
  { icon: PlayCircle, title: 'Video tutorials', text: 'Short walkthroughs of image, video and batch generation.' },
  { icon: Users, title: 'Community', text: 'Share results and tips with other sellers.', to: paths.community },
];

const QUESTIONS = [
  { question: 'Why did my generation fail?', answer: 'Failed generations are refunded automatically. Try a sharper photo without recognizable people, or another motion prompt.' },
  { question: 'Do my credits expire?', answer: 'No. Credits are prepaid and never expire.' },
  { question: 'Which image formats can I upload?', answer: 'JPEG, PNG and WebP. Clothing images can be up to 12MB, video source images up to 6MB.' },
  { question: 'Can I get a refund?', answer: 'Yes, within 7 days of purchase if the credits are unused.' },
];

export default function SupportPage() {
  const user = useUser();
  const [email, setEmail] = useState(user.email);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const ids = { email: useId(), subject: useId(), message: useId() };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Support messages are simulated (there is no support back end yet): nothing is sent to a server.
    toast.success('Message sent', { description: `Thanks! We'll reply to ${email.trim()} within 24 hours.` });
    setSubject('');
    setMessage('');
  };

  return (
    <div className="space-y-8">
      <PageHeader title="Support" description="Questions, problems or ideas? We're here to help." />
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <Card>
          <CardHeader>
            <CardTitle>Contact us</CardTitle>
            <CardDescription className="flex items-center gap-2">
              <Clock className="h-4 w-4" aria-hidden="true" /> We reply within 24 hours.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} className="space-y-4">
              <div>
                <Label htmlFor={ids.email}>Email</Label>
                <Input id={ids.email} type="email" required autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
              </div>
              <div>
                <Label htmlFor={ids.subject}>Subject</Label>
                <Input id={ids.subject} required value={subject} onChange={(event) => setSubject(event.target.value)} maxLength={150} />
              </div>
              <div>
                <Label htmlFor={ids.message}>Message</Label>
                <Textarea id={ids.message} required value={message} onChange={(event) => setMessage(event.target.value)} rows={6} maxLength={5000} />
              </div>
              <Button type="submit">Send message</Button>
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
                  {card.to ? (
                    <Link to={card.to} className="hover:underline">
                      {card.title}
                    </Link>
                  ) : (
                    card.title
                  )}
                </h3>
                <p className="mt-1 text-sm text-slate-700">{card.text}</p>
              </div>
            </Card>
          ))}
        </section>
      </div>
      <section aria-labelledby="support-faq-title">
        <h2 id="support-faq-title" className="mb-4 text-lg font-semibold text-slate-900">
          Frequently asked questions
        </h2>
        <FaqAccordion items={QUESTIONS} />
      </section>
    </div>
  );
}
