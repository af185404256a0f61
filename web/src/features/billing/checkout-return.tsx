import { CircleCheck, Info, LoaderCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { formatCredits } from '@/lib/format';
import { useProfile } from '@/lib/profile';
import { usePurchases } from './use-payments';

/** While the webhook has not granted yet and no push arrived, the receipts are read again this often. */
const FALLBACK_POLL_MS = 5_000;

/**
 * The billing page after Stripe Checkout. Credits are granted only by Stripe's webhook, so the page says the payment
 * was received and waits: when the pushed balance arrives (the realtime socket), it reads the purchases again and
 * shows the new balance once this session's purchase is there. A cancelled checkout gets a neutral note.
 */
export function CheckoutReturn() {
  const [params] = useSearchParams();
  const outcome = params.get('checkout');
  if (outcome === 'success') return <PaymentReceived sessionId={params.get('session_id')} />;
  if (outcome === 'cancelled') {
    return (
      <p role="status" className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
        <Info className="h-4 w-4 shrink-0" aria-hidden="true" />
        Checkout was cancelled. Nothing was charged.
      </p>
    );
  }
  return null;
}

function PaymentReceived({ sessionId }: { sessionId: string | null }) {
  const profile = useProfile();
  const balance = profile.data?.current_credits;
  const firstBalance = useRef<number | undefined>(undefined);
  if (firstBalance.current === undefined && balance !== undefined) firstBalance.current = balance;

  const purchases = usePurchases();
  const granted = sessionId ? purchases.data?.find((purchase) => purchase.transactionId === `purchase#${sessionId}`) : undefined;
  // Without a session id (an old link) the first change of the balance is the sign.
  const arrived = sessionId ? Boolean(granted) : balance !== undefined && balance !== firstBalance.current;

  const { refetch } = purchases;
  useEffect(() => {
    if (!arrived && balance !== undefined) void refetch();
  }, [arrived, balance, refetch]);
  useEffect(() => {
    if (arrived) return;
    const timer = setInterval(() => void refetch(), FALLBACK_POLL_MS);
    return () => clearInterval(timer);
  }, [arrived, refetch]);

  if (!arrived || balance === undefined) {
    return (
      <p role="status" data-testid="checkout-status" className="flex items-center gap-2 rounded-lg border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900">
        <LoaderCircle className="h-4 w-4 shrink-0 animate-spin motion-reduce:animate-none" aria-hidden="true" />
        Payment received — adding your credits…
      </p>
    );
  }
  return (
    <p role="status" data-testid="checkout-status" className="flex items-center gap-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-900">
      <CircleCheck className="h-4 w-4 shrink-0" aria-hidden="true" />
      {granted ? `${formatCredits(granted.credits)} added. ` : 'Credits added. '}
      Your balance is now {formatCredits(balance)}.
    </p>
  );
}
