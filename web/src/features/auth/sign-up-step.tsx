import { useState } from 'react';
import { registerAccount } from '@/lib/auth';
import { AuthStep, ModeLink } from './auth-parts';
import { CredentialFields, SocialSignIn } from './credentials';
import { PASSWORD_PROBLEM_ID, PASSWORD_RULES_ID, passwordProblemOf, PasswordRules } from './password-rules';
import type { AuthFlow } from './use-auth-flow';

const ACCOUNT_EXISTS = 'An account with this email already exists. Sign in, or reset your password if you forgot it.';

/**
 * A new account: the password's rules are listed under its field; a password that breaks one is not sent, and the
 * form names the rule. Then on to the confirm step when the email needs a code, else signed in at once.
 */
export function SignUpStep({ flow }: { flow: AuthFlow }) {
  const [problem, setProblem] = useState<string>();
  const onPasswordChange = (password: string) => {
    flow.setPassword(password);
    // Once shown, the message follows what is typed (and goes when every rule is met).
    if (problem) setProblem(passwordProblemOf(password));
  };
  const onSubmit = () => {
    const broken = passwordProblemOf(flow.password);
    setProblem(broken);
    if (broken) return;
    void flow.run(async () => {
      let output: Awaited<ReturnType<typeof registerAccount>>;
      try {
        output = await registerAccount(flow.email, flow.password);
      } catch (error) {
        if (!(error instanceof Error) || error.name !== 'UsernameExistsException') throw error;
        // Signed up before and never confirmed (the tab closed before the code): with the same password, the sign-in
        // answers CONFIRM_SIGN_UP, a new code is sent and the code screen opens. Anyone else is told to sign in.
        return void (await flow.signInAndContinue('back').catch(() => {
          throw new Error(ACCOUNT_EXISTS);
        }));
      }
      if (output.nextStep.signUpStep === 'CONFIRM_SIGN_UP') flow.switchMode('confirmSignUp');
      else await flow.signInAndContinue('new');
    });
  };
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
      <CredentialFields
        flow={flow}
        autoComplete="new-password"
        onPasswordChange={onPasswordChange}
        passwordDescribedBy={problem ? `${PASSWORD_RULES_ID} ${PASSWORD_PROBLEM_ID}` : PASSWORD_RULES_ID}
        passwordInvalid={Boolean(problem)}
      />
      <PasswordRules password={flow.password} problem={problem} />
    </AuthStep>
  );
}
