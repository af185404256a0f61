import { Eye, EyeOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/field';
import { useSession } from '@/lib/session-context';
import type { AuthFlow } from './use-auth-flow';

/**
 * One step of the auth page: its heading, an optional part above the form (the social sign-in), the form with its
 * fields and submit button, and the links below it. With `codeNote`, the local twin's hint on where codes are printed.
 */
export function AuthStep(props: {
  title: string;
  subtitle: ReactNode;
  codeNote?: boolean;
  beforeForm?: ReactNode;
  busy: boolean;
  onSubmit: () => void;
  submitLabel: string;
  children: ReactNode;
  links: ReactNode;
}) {
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{props.title}</h1>
      <p className="mt-2 text-slate-700">{props.subtitle}</p>
      {props.codeNote && <LocalCodeNote />}
      {props.beforeForm}
      <form
        className="mt-6 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit();
        }}
        aria-busy={props.busy}
      >
        {props.children}
        <Button type="submit" className="w-full" size="lg" busy={props.busy}>
          {props.submitLabel}
        </Button>
      </form>
      <div className="mt-6 text-center text-sm text-slate-700">{props.links}</div>
    </>
  );
}

function LocalCodeNote() {
  const { config } = useSession();
  if (config.host !== 'local') return null;
  return (
    <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      Running locally: the code is printed in the terminal running <code className="font-mono">npm start</code>.
    </p>
  );
}

/** The address the code went to, as the code steps' subtitles show it. */
export function EmailShown({ email }: { email: string }) {
  return <strong className="text-slate-900">{email}</strong>;
}

export function ModeLink({ busy, onClick, children }: { busy: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="rounded font-medium text-brand-700 hover:underline" disabled={busy} onClick={onClick}>
      {children}
    </button>
  );
}

export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div>
      <Label htmlFor="email">Email</Label>
      <Input
        id="email"
        type="email"
        required
        autoComplete="email"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder="you@example.com"
      />
    </div>
  );
}

export function PasswordField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  /** Ids of the texts that describe the field (its rules, its error). */
  describedBy?: string;
  invalid?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div>
      <Label htmlFor={props.id}>{props.label}</Label>
      <div className="relative">
        <Input
          id={props.id}
          type={visible ? 'text' : 'password'}
          required
          autoComplete={props.autoComplete}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          aria-describedby={props.describedBy}
          aria-invalid={props.invalid ? true : undefined}
          className="pr-11"
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-600 hover:text-slate-900"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? <EyeOff className="h-4 w-4" aria-hidden="true" /> : <Eye className="h-4 w-4" aria-hidden="true" />}
        </button>
      </div>
    </div>
  );
}

export function BackToSignIn({ flow }: { flow: AuthFlow }) {
  return (
    <ModeLink busy={flow.busy} onClick={() => flow.switchMode('signIn')}>
      Back to sign in
    </ModeLink>
  );
}
