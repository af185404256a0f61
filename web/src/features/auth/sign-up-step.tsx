import { registerAccount } from '@/lib/auth';
import { AuthStep, ModeLink } from './auth-parts';
import { CredentialFields, SocialSignIn } from './credentials';
import type { AuthFlow } from './use-auth-flow';

/** A new account: on to the confirm step when the email needs a code, else signed in at once. */
export function SignUpStep({ flow }: { flow: AuthFlow }) {
  const onSubmit = () =>
    void flow.run(async () => {
      const output = await registerAccount(flow.email, flow.password);
      if (output.nextStep.signUpStep === 'CONFIRM_SIGN_UP') flow.switchMode('confirmSignUp');
      else await flow.signInAndContinue('new');
    });
  return (
    <AuthStep
      title="Get Started"
      subtitle="Create your account and get 5 free video credits."
      beforeForm={<SocialSignIn flow={flow} />}
      busy={flow.busy}
      onSubmit={onSubmit}
      submitLabel="Create Account"
      links={
        <ModeLink busy={flow.busy} onClick={() => flow.switchMode('signIn')}>
          Already have an account? Sign in
        </ModeLink>
      }
    >
      <CredentialFields flow={flow} autoComplete="new-password" />
    </AuthStep>
  );
}
