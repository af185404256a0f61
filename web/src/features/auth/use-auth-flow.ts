import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { resendConfirmationCode, signInWithPassword } from '@/lib/auth';
import { useSession } from '@/lib/session-context';

/** The steps of the auth page; each has its own component (sign-in-step.tsx, sign-up-step.tsx, …). */
export type Mode = 'signIn' | 'signUp' | 'confirmSignUp' | 'totp' | 'forgot' | 'resetPassword';

export const errorMessage = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'Something went wrong. Please try again.';

/**
 * What the steps share: the current step, the email and password typed so far (a later step needs them), the busy
 * flag, and the sign-in that ends most steps. A step's own fields (a code, a new password) live in the step, so
 * switching steps starts them empty.
 */
export function useAuthFlow() {
  const { refresh } = useSession();
  // A landing pack opens /auth?mode=signup&next=…: a new visitor starts on sign-up.
  const [mode, setMode] = useState<Mode>(() => (new URLSearchParams(window.location.search).get('mode') === 'signup' ? 'signUp' : 'signIn'));
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Bumped on every switch: the shell keys the step by it, so even a switch to the same step starts its fields empty.
  const [visit, setVisit] = useState(0);

  const switchMode = (next: Mode) => {
    setMode(next);
    setVisit((count) => count + 1);
  };

  // The last failure's toast: a new attempt takes it away, so a wrong code's error never follows onto the dashboard.
  const failureToast = useRef<string | number | undefined>(undefined);

  /** Runs one auth step with the busy flag set, and reports a failure as 'Authentication Error'. */
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    if (failureToast.current !== undefined) toast.dismiss(failureToast.current);
    failureToast.current = undefined;
    try {
      await step();
    } catch (error) {
      failureToast.current = toast.error('Authentication Error', { description: errorMessage(error) });
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

  return { mode, visit, switchMode, busy, setBusy, email, setEmail, password, setPassword, run, finishSignIn, signInAndContinue };
}

export type AuthFlow = ReturnType<typeof useAuthFlow>;
