import { CheckoutRequest, PurchaseCreditsRequest } from '@contracts/api';
import { BILLING_PACKAGES, DEFAULT_PACKAGE_CREDITS, MIN_CUSTOM_CREDITS, packAllowance, priceUsd, USD_PER_CREDIT } from '@contracts/catalog';
import { Check, Coins, CreditCard, FlaskConical } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { Input, Label } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { formatCredits, formatNumber, formatUsd } from '@/lib/format';
import { useProfile } from '@/lib/profile';
import { useSession } from '@/lib/session-context';
import { usePricingTiers } from '@/features/prices';
import { CheckoutReturn } from './checkout-return';
import { Receipts } from './receipts';
import { paymentModeOf, useCheckout } from './use-payments';
import { usePurchaseCredits } from './use-purchase-credits';

type Selection = number | 'custom';

export default function BillingPage() {
  const { config } = useSession();
  const profile = useProfile();
  const purchase = usePurchaseCredits();
  const checkout = useCheckout();
  const mode = paymentModeOf(config);
  // What each package buys at this deployment's prices (the figure is left out until they load).
  const tiers = usePricingTiers().data;
  const canBuy = mode !== 'off';
  // ?credits=N (a landing pack): that package, or the custom amount N, is chosen.
  const [searchParams] = useSearchParams();
  const asked = Number(searchParams.get('credits'));
  const askedValid = Number.isInteger(asked) && asked >= MIN_CUSTOM_CREDITS;
  const [selection, setSelection] = useState<Selection>(() =>
    askedValid ? (BILLING_PACKAGES.some((pack) => pack.credits === asked) ? asked : 'custom') : DEFAULT_PACKAGE_CREDITS,
  );
  const [customAmount, setCustomAmount] = useState(() => (askedValid && selection === 'custom' ? String(asked) : ''));
  const customId = useId();
  const customErrorId = useId();

  const requested = selection === 'custom' ? Number(customAmount) : selection;
  const validation = (mode === 'stripe' ? CheckoutRequest : PurchaseCreditsRequest).safeParse({ credits: customAmount === '' && selection === 'custom' ? undefined : requested });
  const credits = validation.success ? validation.data.credits : undefined;
  const customError = selection === 'custom' && customAmount !== '' && !validation.success ? validation.error.issues[0]?.message : undefined;
  const retrying = purchase.pendingRetryFor !== undefined && purchase.pendingRetryFor === credits;

  // After a purchase, Buy asks before buying again: a second click is rarely meant as a second payment.
  const [bought, setBought] = useState<number>();
  const [confirmAgain, setConfirmAgain] = useState(false);

  const onBuy = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (credits === undefined) return;
    if (bought !== undefined) return setConfirmAgain(true);
    buy(credits);
  };

  const buy = (amount: number) => {
    if (mode === 'stripe') {
      checkout.mutate(amount, { onError: (error) => toast.error('Error', { description: error.message }) });
      return;
    }
    purchase.mutate(amount, {
      onSuccess: (result) => {
        setBought(result.credits);
        toast.success('Credits added', {
          description: `${formatCredits(result.credits)} added. Your balance is now ${formatNumber(result.newCredits)}.`,
        });
      },
      onError: (error) => toast.error('Error', { description: error.message }),
    });
  };

  return (
    <div className="space-y-8">
      <PageHeader
        title="Billing"
        description={`Buy credits at ${formatUsd(USD_PER_CREDIT)} each. No subscription; credits never expire.`}
        actions={
          <p className="flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm shadow-sm ring-1 ring-slate-200">
            <Coins className="h-4 w-4 text-amber-600" aria-hidden="true" />
            Balance:{' '}
            <strong className="text-slate-900" data-testid="billing-balance">
              {profile.data ? formatNumber(profile.data.current_credits) : '…'}
            </strong>
          </p>
        }
      />

      <CheckoutReturn />
      <PaymentModeNote mode={mode} host={config.host} />

      <form onSubmit={onBuy} className="space-y-6">
        <fieldset>
          <legend className="mb-4 text-lg font-semibold text-slate-900">Credit packages</legend>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {BILLING_PACKAGES.map((pack) => (
              <PackageOption
                key={pack.credits}
                checked={selection === pack.credits}
                onSelect={() => setSelection(pack.credits)}
                title={formatCredits(pack.credits)}
                detail={[formatUsd(pack.usd), packAllowance(pack.credits, tiers)].filter(Boolean).join(' · ')}
                badge={pack.popular ? 'Popular' : undefined}
              />
            ))}
            <PackageOption
              checked={selection === 'custom'}
              onSelect={() => setSelection('custom')}
              title="Custom amount"
              detail={`${formatUsd(USD_PER_CREDIT)} per credit`}
            />
          </div>
        </fieldset>

        {selection === 'custom' && (
          <div className="max-w-xs">
            <Label htmlFor={customId}>Number of credits</Label>
            <Input
              id={customId}
              type="number"
              inputMode="numeric"
              min={MIN_CUSTOM_CREDITS}
              step={1}
              required
              value={customAmount}
              onChange={(event) => setCustomAmount(event.target.value)}
              aria-invalid={customError ? true : undefined}
              aria-describedby={customError ? customErrorId : undefined}
              autoFocus
            />
            {customError && (
              <p id={customErrorId} className="mt-1.5 text-sm text-red-700">
                {customError}
              </p>
            )}
          </div>
        )}

        <Card>
          <CardHeader>
            <CardTitle>Order summary</CardTitle>
            <CardDescription>Total = credits × {formatUsd(USD_PER_CREDIT)}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <dl className="grid gap-2 text-sm sm:max-w-sm">
              <div className="flex justify-between">
                <dt className="text-slate-700">Credits</dt>
                <dd className="font-medium text-slate-900">{credits === undefined ? '—' : formatNumber(credits)}</dd>
              </div>
              <div className="flex justify-between text-base">
                <dt className="font-semibold text-slate-900">Total</dt>
                <dd className="font-bold text-slate-900" data-testid="billing-total">
                  {credits === undefined ? '—' : formatUsd(priceUsd(credits))}
                </dd>
              </div>
            </dl>
            {mode === 'stripe' ? (
              <p className="flex items-start gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
                <CreditCard className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                <span>You pay by card on Stripe's secure checkout page; the credits arrive as soon as Stripe confirms the payment.</span>
              </p>
            ) : mode === 'test' ? (
              <p className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
                <FlaskConical className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                <span>
                  <strong>{config.host === 'local' ? 'Local test payment' : 'Test payment'}:</strong> no card is charged and no
                  real money moves. The credits are granted for testing.
                </span>
              </p>
            ) : (
              <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
                Online card payments are not enabled on this deployment yet. Contact support to buy credits.
              </p>
            )}
            <Button
              type="submit"
              size="lg"
              busy={purchase.isPending || checkout.isPending || checkout.isSuccess}
              disabled={!canBuy || credits === undefined}
            >
              {retrying
                ? 'Retry purchase'
                : credits === undefined
                  ? 'Buy credits'
                  : `Buy ${formatCredits(credits)} for ${formatUsd(priceUsd(credits))}`}
            </Button>
          </CardContent>
        </Card>
      </form>

      {mode !== 'off' && <Receipts />}

      <Dialog open={confirmAgain} onOpenChange={setConfirmAgain}>
        <DialogContent
          role="alertdialog"
          title="Buy credits again?"
          description={`You just bought ${formatCredits(bought)}. Buy ${formatCredits(credits)} for ${formatUsd(priceUsd(credits ?? 0))} more?`}
        >
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline">Not now</Button>
            </DialogClose>
            <Button
              onClick={() => {
                setConfirmAgain(false);
                if (credits !== undefined) buy(credits);
              }}
            >
              Buy again
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** Which way of paying is active here, so nobody mistakes a test payment for a real one (or the reverse). */
function PaymentModeNote({ mode, host }: { mode: ReturnType<typeof paymentModeOf>; host: 'local' | 'cloud' }) {
  const label =
    mode === 'stripe'
      ? host === 'local'
        ? 'Stripe test mode (no real money)'
        : 'Card payments by Stripe'
      : mode === 'test'
        ? 'Test mode (no card, no money)'
        : 'Purchases are off';
  return (
    <p className="text-sm text-slate-700">
      Payment mode:{' '}
      <Badge tone={mode === 'stripe' ? 'success' : mode === 'test' ? 'warning' : 'neutral'} data-testid="payment-mode" data-mode={mode}>
        {label}
      </Badge>
    </p>
  );
}

function PackageOption(props: { checked: boolean; onSelect: () => void; title: string; detail: string; badge?: string }) {
  return (
    <label
      className={cn(
        'relative flex cursor-pointer items-center justify-between gap-3 rounded-xl border-2 bg-white p-5 shadow-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
        props.checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:border-slate-300',
      )}
    >
      <input type="radio" name="package" className="sr-only" checked={props.checked} onChange={props.onSelect} />
      <span>
        <span className="block font-semibold text-slate-900">{props.title}</span>
        <span className="block text-sm text-slate-700">{props.detail}</span>
      </span>
      <span className="flex items-center gap-2">
        {props.badge && <Badge tone="brand">{props.badge}</Badge>}
        <span
          className={cn(
            'flex h-6 w-6 items-center justify-center rounded-full border-2',
            props.checked ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300',
          )}
          aria-hidden="true"
        >
          {props.checked && <Check className="h-4 w-4" />}
        </span>
      </span>
    </label>
  );
}
