import { useState } from 'react';
import { toast } from 'sonner';
import { TotpInput } from '@/components/ui/totp-input';
import { confirmAccount, resendConfirmationCode } from '@/lib/auth';
import { AuthStep, EmailShown, ModeLink } from './auth-parts';
import type { AuthFlow } from './use-auth-flow';

/** The code sent to a new account's email; confirmed, the visitor is signed in with the password given at sign-up. */
export function ConfirmStep({ flow }: { flow: AuthFlow }) {
  const [code, setCode] = useState('');
  const onSubmit = () =>
    void flow.run(async () => {
      await confirmAccount(flow.email, code.trim());
      await flow.signInAndContinue('new');
    });
  const resend = () =>
    void flow.run(async () => {
      await resendConfirmationCode(flow.email);
      toast.success('Code sent', { description: `We sent a new code to ${flow.email}.` });
    });
  return (
    <AuthStep
      title="Confirm your email"
      subtitle={
        <>
          Enter the confirmation code we sent to <EmailShown email={flow.email} />.
        </>
      }
      codeNote
      busy={flow.busy}
      onSubmit={onSubmit}
      submitLabel="Confirm and continue"
      links={
        <ModeLink busy={flow.busy} onClick={resend}>
          Didn't get a code? Send it again
        </ModeLink>
      }
    >
      <TotpInput id="code" label="Verification code" value={code} onChange={setCode} placeholder="123456" autoFocus />
    </AuthStep>
  );
}
