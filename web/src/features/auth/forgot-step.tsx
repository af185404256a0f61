import { toast } from 'sonner';
import { requestPasswordReset } from '@/lib/auth';
import { AuthStep, BackToSignIn, EmailField } from './auth-parts';
import type { AuthFlow } from './use-auth-flow';

/** Forgot password: a reset code is sent to the email, then the reset step takes it with the new password. */
export function ForgotStep({ flow }: { flow: AuthFlow }) {
  const onSubmit = () =>
    void flow.run(async () => {
      await requestPasswordReset(flow.email);
      toast.success('Check your email', { description: 'We sent you a code to reset your password.' });
      flow.switchMode('resetPassword');
    });
  return (
    <AuthStep
      title="Reset your password"
      subtitle="Enter your email and we'll send you a code to set a new password."
      busy={flow.busy}
      onSubmit={onSubmit}
      submitLabel="Send reset code"
      links={<BackToSignIn flow={flow} />}
    >
      <EmailField value={flow.email} onChange={flow.setEmail} />
    </AuthStep>
  );
}
