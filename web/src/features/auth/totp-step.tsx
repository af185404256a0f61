import { useState } from 'react';
import { TotpInput } from '@/components/ui/totp-input';
import { submitTotpCode } from '@/lib/auth';
import { AuthStep, BackToSignIn } from './auth-parts';
import type { AuthFlow } from './use-auth-flow';

/** Two-factor authentication: the code from the authenticator app set up in Settings › Security. */
export function TotpStep({ flow }: { flow: AuthFlow }) {
  const [code, setCode] = useState('');
  const onSubmit = () =>
    void flow.run(async () => {
      const output = await submitTotpCode(code.trim());
      if (!output.isSignedIn) throw new Error('The code was not accepted. Please try again.');
      await flow.finishSignIn('Welcome back!', "You've successfully signed in.");
    });
  return (
    <AuthStep
      title="Two-factor authentication"
      subtitle="Enter the 6-digit code from your authenticator app."
      busy={flow.busy}
      onSubmit={onSubmit}
      submitLabel="Verify"
      links={<BackToSignIn flow={flow} />}
    >
      <TotpInput id="code" label="Authentication code" value={code} onChange={setCode} placeholder="123456" autoFocus />
    </AuthStep>
  );
}
