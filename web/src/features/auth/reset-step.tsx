import { useState } from 'react';
import { toast } from 'sonner';
import { TotpInput } from '@/components/ui/totp-input';
import { setNewPassword } from '@/lib/auth';
import { AuthStep, BackToSignIn, EmailShown, PasswordField } from './auth-parts';
import type { AuthFlow } from './use-auth-flow';

/** The reset code from the email and a new password; then back to sign-in with it. */
export function ResetStep({ flow }: { flow: AuthFlow }) {
  const [code, setCode] = useState('');
  const [newPassword, setNewPasswordValue] = useState('');
  const onSubmit = () =>
    void flow.run(async () => {
      await setNewPassword(flow.email, code.trim(), newPassword);
      flow.setPassword('');
      setNewPasswordValue('');
      toast.success('Password updated', { description: 'Sign in with your new password.' });
      flow.switchMode('signIn');
    });
  return (
    <AuthStep
      title="Set a new password"
      subtitle={
        <>
          Enter the code we sent to <EmailShown email={flow.email} /> and choose a new password.
        </>
      }
      codeNote
      busy={flow.busy}
      onSubmit={onSubmit}
      submitLabel="Set new password"
      links={<BackToSignIn flow={flow} />}
    >
      <TotpInput id="code" label="Verification code" value={code} onChange={setCode} placeholder="123456" autoFocus />
      <PasswordField id="new-password" label="New password" value={newPassword} onChange={setNewPasswordValue} autoComplete="new-password" />
    </AuthStep>
  );
}
