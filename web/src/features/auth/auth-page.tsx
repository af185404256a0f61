import { Eye, EyeOff } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { BrandLink } from '@/components/brand';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/field';
import {
  confirmAccount,
  registerAccount,
  requestPasswordReset,
  resendConfirmationCode,
  setNewPassword,
  signInWithPassword,
  signInWithSocialProvider,
  submitTotpCode,
} from '@/lib/auth';
import { useSession } from '@/lib/session-context';
import { BeforeAfterSlider } from './before-after-slider';

type Mode = 'signIn' | 'signUp' | 'confirmSignUp' | 'totp' | 'forgot' | 'resetPassword';

const errorMessage = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'Something went wrong. Please try again.';

export default function AuthPage() {
  const { config, refresh } = useSession();
  // A landing pack opens /auth?mode=signup&next=…: a new visitor starts on sign-up.
  const [mode, setMode] = useState<Mode>(() => (new URLSearchParams(window.location.search).get('mode') === 'signup' ? 'signUp' : 'signIn'));
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [newPassword, setNewPasswordValue] = useState('');

  const switchMode = (next: Mode) => {
    setMode(next);
    setCode('');
  };

  /** Runs one auth step with the busy flag set, and reports a failure as 'Authentication Error'. */
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    try {
      await step();
    } catch (error) {
      toast.error('Authentication Error', { description: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const finishSignIn = async (title: string, description: string) => {
    toast.success(title, { description });
    await refresh(); // the guard then takes the visitor to the dashboard
  };

  const signInAndContinue = async (welcome: 'back' | 'new') => {
    const output = await signInWithPassword(email, password);
    const step = output.nextStep.signInStep;
    if (output.isSignedIn || step === 'DONE') {
      if (welcome === 'new') await finishSignIn('Account created!', 'Welcome to ModelLoop. You have 5 free video credits.');
      else await finishSignIn('Welcome back!', "You've successfully signed in.");
    } else if (step === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') {
      switchMode('totp');
    } else if (step === 'CONFIRM_SIGN_UP') {
      await resendConfirmationCode(email);
      toast.info('Confirm your email', { description: 'Your account is not confirmed yet. We sent you a new code.' });
      switchMode('confirmSignUp');
    } else {
      throw new Error(`This sign-in step is not supported yet (${step}).`);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(async () => {
      switch (mode) {
        case 'signIn':
          await signInAndContinue('back');
          break;
        case 'signUp': {
          const output = await registerAccount(email, password);
          if (output.nextStep.signUpStep === 'CONFIRM_SIGN_UP') switchMode('confirmSignUp');
          else await signInAndContinue('new');
          break;
        }
        case 'confirmSignUp':
          await confirmAccount(email, code.trim());
          await signInAndContinue('new');
          break;
        case 'totp': {
          const output = await submitTotpCode(code.trim());
          if (!output.isSignedIn) throw new Error('The code was not accepted. Please try again.');
          await finishSignIn('Welcome back!', "You've successfully signed in.");
          break;
        }
        case 'forgot':
          await requestPasswordReset(email);
          toast.success('Check your email', { description: 'We sent you a code to reset your password.' });
          switchMode('resetPassword');
          break;
        case 'resetPassword':
          await setNewPassword(email, code.trim(), newPassword);
          setPassword('');
          setNewPasswordValue('');
          toast.success('Password updated', { description: 'Sign in with your new password.' });
          switchMode('signIn');
          break;
      }
    });
  };

  const onSocial = async () => {
    setBusy(true);
    try {
      await signInWithSocialProvider(); // leaves the page on success
    } catch (error) {
      toast.error('Sign In Error', { description: errorMessage(error) });
      setBusy(false);
    }
  };

  const providerName = config.oauth?.providers[0] ?? 'Google';
  const localCodeNote =
    config.host === 'local' ? (
      <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        Running locally: the code is printed in the terminal running <code className="font-mono">npm start</code>.
      </p>
    ) : null;

  const heading: Record<Mode, { title: string; subtitle: ReactNode }> = {
    signIn: { title: 'Welcome Back', subtitle: 'Sign in to your ModelLoop account to keep creating.' },
    signUp: { title: 'Get Started', subtitle: 'Create your account and get 5 free video credits.' },
    confirmSignUp: {
      title: 'Confirm your email',
      subtitle: (
        <>
          Enter the confirmation code we sent to <strong className="text-slate-900">{email}</strong>.
        </>
      ),
    },
    totp: { title: 'Two-factor authentication', subtitle: 'Enter the 6-digit code from your authenticator app.' },
    forgot: { title: 'Reset your password', subtitle: "Enter your email and we'll send you a code to set a new password." },
    resetPassword: {
      title: 'Set a new password',
      subtitle: (
        <>
          Enter the code we sent to <strong className="text-slate-900">{email}</strong> and choose a new password.
        </>
      ),
    },
  };
  const submitLabel: Record<Mode, string> = {
    signIn: 'Sign In',
    signUp: 'Create Account',
    confirmSignUp: 'Confirm and continue',
    totp: 'Verify',
    forgot: 'Send reset code',
    resetPassword: 'Set new password',
  };
  const withCredentials = mode === 'signIn' || mode === 'signUp';

  return (
    <div className="flex min-h-screen">
      <aside
        aria-label="Example results"
        className="hidden flex-1 flex-col items-center justify-center gap-8 bg-gradient-to-br from-brand-800 via-brand-700 to-accent-600 p-12 text-white lg:flex"
      >
        <div className="max-w-md">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-100">From product photo to model shot</p>
          <p className="mt-2 text-3xl font-bold">Drag the divider to compare</p>
        </div>
        <BeforeAfterSlider />
      </aside>
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12 sm:px-8">
        <div className="w-full max-w-md">
          <BrandLink className="mb-10" />
          <PageTitle title={mode === 'signUp' ? 'Sign up' : 'Sign in'} />
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">{heading[mode].title}</h1>
          <p className="mt-2 text-slate-700">{heading[mode].subtitle}</p>
          {(mode === 'confirmSignUp' || mode === 'resetPassword') && localCodeNote}

          {withCredentials && (
            <div className="mt-8 space-y-3">
              <Button variant="outline" className="w-full" disabled={busy} onClick={() => void onSocial()}>
                <GoogleGlyph /> Continue with {providerName}
              </Button>
              <Button variant="outline" className="w-full" disabled title="Coming soon">
                <AppleGlyph /> Continue with Apple (coming soon)
              </Button>
              <div className="flex items-center gap-3 py-2 text-xs uppercase tracking-wide text-slate-600">
                <span className="h-px flex-1 bg-slate-200" />
                or with email
                <span className="h-px flex-1 bg-slate-200" />
              </div>
            </div>
          )}

          <form className="mt-6 space-y-4" onSubmit={onSubmit} aria-busy={busy}>
            {(withCredentials || mode === 'forgot') && (
              <div>
                <Label htmlFor="email">Email</Label>
                <Input
                  id="email"
                  type="email"
                  required
                  autoComplete="email"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  placeholder="you@example.com"
                />
              </div>
            )}
            {withCredentials && (
              <PasswordField
                id="password"
                label="Password"
                value={password}
                onChange={setPassword}
                autoComplete={mode === 'signUp' ? 'new-password' : 'current-password'}
              />
            )}
            {(mode === 'confirmSignUp' || mode === 'totp' || mode === 'resetPassword') && (
              <div>
                <Label htmlFor="code">{mode === 'totp' ? 'Authentication code' : 'Verification code'}</Label>
                <Input
                  id="code"
                  required
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  title="6 digits"
                  maxLength={6}
                  value={code}
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
                  placeholder="123456"
                  autoFocus
                />
              </div>
            )}
            {mode === 'resetPassword' && (
              <PasswordField id="new-password" label="New password" value={newPassword} onChange={setNewPasswordValue} autoComplete="new-password" />
            )}
            {mode === 'signIn' && (
              <div className="text-right">
                <button
                  type="button"
                  className="rounded text-sm font-medium text-brand-700 hover:underline"
                  disabled={busy}
                  onClick={() => switchMode('forgot')}
                >
                  Forgot password?
                </button>
              </div>
            )}
            <Button type="submit" className="w-full" size="lg" busy={busy}>
              {submitLabel[mode]}
            </Button>
          </form>

          <div className="mt-6 text-center text-sm text-slate-700">
            {mode === 'signIn' && (
              <ModeLink busy={busy} onClick={() => switchMode('signUp')}>
                Don't have an account? Sign up
              </ModeLink>
            )}
            {mode === 'signUp' && (
              <ModeLink busy={busy} onClick={() => switchMode('signIn')}>
                Already have an account? Sign in
              </ModeLink>
            )}
            {mode === 'confirmSignUp' && (
              <ModeLink
                busy={busy}
                onClick={() =>
                  void run(async () => {
                    await resendConfirmationCode(email);
                    toast.success('Code sent', { description: `We sent a new code to ${email}.` });
                  })
                }
              >
                Didn't get a code? Send it again
              </ModeLink>
            )}
            {(mode === 'totp' || mode === 'forgot' || mode === 'resetPassword') && (
              <ModeLink busy={busy} onClick={() => switchMode('signIn')}>
                Back to sign in
              </ModeLink>
            )}
          </div>
        </div>
      </main>
    </div>
  );
}

function ModeLink({ busy, onClick, children }: { busy: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="rounded font-medium text-brand-700 hover:underline" disabled={busy} onClick={onClick}>
      {children}
    </button>
  );
}

function PasswordField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
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

function GoogleGlyph() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6H1.3a12 12 0 0 0 0 10.8z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z" />
    </svg>
  );
}

function AppleGlyph() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true">
      <path
        fill="currentColor"
        d="M16.4 12.6c0-2.6 2.1-3.8 2.2-3.9-1.2-1.8-3.1-2-3.7-2-1.6-.2-3.1.9-3.9.9s-2-.9-3.3-.9c-1.7 0-3.3 1-4.2 2.5-1.8 3.1-.5 7.7 1.3 10.2.9 1.2 1.9 2.6 3.2 2.6s1.8-.8 3.3-.8 2 .8 3.3.8 2.2-1.2 3-2.5c1-1.4 1.3-2.7 1.4-2.8-.1 0-2.6-1-2.6-4.1zM13.9 5c.7-.8 1.2-2 1-3.1-1 0-2.2.7-2.9 1.5-.6.7-1.2 1.9-1 3 1.1.1 2.2-.6 2.9-1.4z"
      />
    </svg>
  );
}
