import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { signInWithSocialProvider } from '@/lib/auth';
import { useSession } from '@/lib/session-context';
import { EmailField, PasswordField } from './auth-parts';
import { errorMessage, type AuthFlow } from './use-auth-flow';

/** What sign-in and sign-up share: the social sign-in above the form, and the email and password fields. */
export function SocialSignIn({ flow }: { flow: AuthFlow }) {
  const { config } = useSession();
  const providerName = config.oauth?.providers[0] ?? 'Google';
  const onSocial = async () => {
    flow.setBusy(true);
    try {
      await signInWithSocialProvider(); // leaves the page on success
    } catch (error) {
      toast.error('Sign In Error', { description: errorMessage(error) });
      flow.setBusy(false);
    }
  };
  return (
    <div className="mt-8 space-y-3">
      <Button variant="outline" className="w-full" disabled={flow.busy} onClick={() => void onSocial()}>
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
  );
}

export function CredentialFields(props: {
  flow: AuthFlow;
  autoComplete: 'current-password' | 'new-password';
  onPasswordChange?: (password: string) => void;
  passwordDescribedBy?: string;
  passwordInvalid?: boolean;
}) {
  const { flow } = props;
  return (
    <>
      <EmailField value={flow.email} onChange={flow.setEmail} />
      <PasswordField
        id="password"
        label="Password"
        value={flow.password}
        onChange={props.onPasswordChange ?? flow.setPassword}
        autoComplete={props.autoComplete}
        describedBy={props.passwordDescribedBy}
        invalid={props.passwordInvalid}
      />
    </>
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
