import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { TotpInput } from '@/components/ui/totp-input';
import { beginTotpSetup, completeTotpSetup, disableTotp, totpEnabled } from '@/lib/auth';
import { useUser } from '@/lib/session-context';

interface Enrolment {
  secret: string;
  qrDataUrl: string;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Please try again.');

/** Two-factor authentication with an authenticator app (TOTP): set up with a QR code and a first code, or turn off. */
export function SecuritySection({ email }: { email?: string }) {
  const user = useUser();
  const queryClient = useQueryClient();
  const mfaKey = ['mfa', user.userId] as const;
  const status = useQuery({ queryKey: mfaKey, queryFn: totpEnabled });
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');

  const start = useMutation({
    mutationFn: async () => {
      const { secret, uri } = await beginTotpSetup(email || user.email);
      const { toDataURL } = await import('qrcode');
      return { secret, qrDataUrl: await toDataURL(uri, { margin: 1, width: 200 }) };
    },
    onSuccess: setEnrolment,
    onError: (error) => toast.error('Error', { description: `Could not start the setup: ${errorText(error)}` }),
  });

  const verify = useMutation({
    mutationFn: () => completeTotpSetup(code.trim()),
    onSuccess: async () => {
      setEnrolment(null);
      setCode('');
      toast.success('Two-factor authentication is on', { description: 'You will be asked for a code when you sign in.' });
      await queryClient.invalidateQueries({ queryKey: mfaKey });
    },
    onError: (error) => toast.error('Error', { description: `The code was not accepted: ${errorText(error)}` }),
  });

  const turnOff = useMutation({
    mutationFn: disableTotp,
    onSuccess: async () => {
      toast.success('Two-factor authentication is off');
      await queryClient.invalidateQueries({ queryKey: mfaKey });
    },
    onError: (error) => toast.error('Error', { description: errorText(error) }),
  });

  const onVerify = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    verify.mutate();
  };

  return (
    <section id="security" aria-labelledby="security-title">
      <Card>
        <CardHeader>
          <CardTitle id="security-title">Security</CardTitle>
          <CardDescription>Protect your account with a code from an authenticator app when you sign in.</CardDescription>
        </CardHeader>
        <CardContent>
          {status.isPending ? (
            <Spinner label="Loading two-factor status…" />
          ) : status.isError ? (
            <p className="text-slate-700">The two-factor status could not be loaded.</p>
          ) : status.data ? (
            <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="flex items-center gap-2 font-medium text-emerald-800" data-testid="mfa-status">
                <ShieldCheck className="h-5 w-5" aria-hidden="true" /> Two-factor authentication is on
              </p>
              <Button variant="outline" busy={turnOff.isPending} onClick={() => turnOff.mutate()}>
                Turn off two-factor authentication
              </Button>
            </div>
          ) : enrolment ? (
            <div className="grid gap-6 md:grid-cols-[auto_1fr]">
              <img src={enrolment.qrDataUrl} alt="QR code to add ModelLoop to your authenticator app" width={200} height={200} className="rounded-lg border border-slate-200" />
              <form onSubmit={onVerify} className="space-y-4">
                <p className="text-sm text-slate-700">
                  Scan the QR code with your authenticator app, or enter this key by hand:
                </p>
                <code data-testid="totp-secret" className="block break-all rounded-lg bg-slate-100 p-3 font-mono text-sm text-slate-900">
                  {enrolment.secret}
                </code>
                <TotpInput id="totp-code" label="Code from the app" value={code} onChange={setCode} className="max-w-40" />
                <div className="flex gap-2">
                  <Button type="submit" busy={verify.isPending}>
                    Verify and turn on
                  </Button>
                  <Button variant="ghost" onClick={() => setEnrolment(null)} disabled={verify.isPending}>
                    Cancel
                  </Button>
                </div>
              </form>
            </div>
          ) : (
            <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="flex items-center gap-2 font-medium text-slate-700" data-testid="mfa-status">
                <ShieldOff className="h-5 w-5" aria-hidden="true" /> Two-factor authentication is off
              </p>
              <Button busy={start.isPending} onClick={() => start.mutate()}>
                Set up authenticator app
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
