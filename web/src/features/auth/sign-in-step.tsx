import { AuthStep, ModeLink } from './auth-parts';
import { CredentialFields, SocialSignIn } from './credentials';
import type { AuthFlow } from './use-auth-flow';

/** Email and password (or the social sign-in); on to the TOTP step when two-factor authentication is on. */
export function SignInStep({ flow }: { flow: AuthFlow }) {
  return (
    <AuthStep
      title="Welcome Back"
      subtitle="Sign in to your ModelLoop account to keep creating."
      beforeForm={<SocialSignIn flow={flow} />}
      busy={flow.busy}
      onSubmit={() => void flow.run(() => flow.signInAndContinue('back'))}
      submitLabel="Sign In"
      links={
        <ModeLink busy={flow.busy} onClick={() => flow.switchMode('signUp')}>
          Don't have an account? Sign up
        </ModeLink>
      }
    >
      <CredentialFields flow={flow} autoComplete="current-password" />
      <div className="text-right">
        <button
          type="button"
          className="rounded text-sm font-medium text-brand-700 hover:underline"
          disabled={flow.busy}
          onClick={() => flow.switchMode('forgot')}
        >
          Forgot password?
        </button>
      </div>
    </AuthStep>
  );
}
