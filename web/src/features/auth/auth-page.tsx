import type { ComponentType } from 'react';
import { BrandLink } from '@/components/brand';
import { PageTitle } from '@/components/page-title';
import { BeforeAfterSlider } from './before-after-slider';
import { ConfirmStep } from './confirm-step';
import { ForgotStep } from './forgot-step';
import { ResetStep } from './reset-step';
import { SignInStep } from './sign-in-step';
import { SignUpStep } from './sign-up-step';
import { TotpStep } from './totp-step';
import { useAuthFlow, type AuthFlow, type Mode } from './use-auth-flow';

const STEPS: Record<Mode, ComponentType<{ flow: AuthFlow }>> = {
  signIn: SignInStep,
  signUp: SignUpStep,
  confirmSignUp: ConfirmStep,
  totp: TotpStep,
  forgot: ForgotStep,
  resetPassword: ResetStep,
};

/** /auth: the example results beside the current step (sign-in, sign-up, confirm, TOTP, forgot, reset). */
export default function AuthPage() {
  const flow = useAuthFlow();
  const Step = STEPS[flow.mode];
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
          <PageTitle title={flow.mode === 'signUp' ? 'Sign up' : 'Sign in'} />
          <Step key={flow.visit} flow={flow} />
        </div>
      </main>
    </div>
  );
}
