import type { PurchaseReceipt } from '@contracts/api';
import { REFUND_WINDOW_DAYS } from '@contracts/api';
import { ExternalLink } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Spinner } from '@/components/ui/spinner';
import { formatCredits, formatDate, formatNumber, formatUsd } from '@/lib/format';
import { useProfile } from '@/lib/profile';
import { usePurchases, useRefundPurchase } from './use-payments';

const amountText = (purchase: PurchaseReceipt) =>
  purchase.amount_cents === undefined ? 'Test payment' : formatUsd(purchase.amount_cents / 100);

const COLUMNS: Column<PurchaseReceipt>[] = [
  { header: 'Date', cell: (purchase) => formatDate(purchase.created_at) },
  { header: 'Credits', cell: (purchase) => formatNumber(purchase.credits) },
  { header: 'Amount', cell: amountText },
  { header: <span className="sr-only">Receipt and refund</span>, cell: (purchase) => <ReceiptActions purchase={purchase} />, align: 'right' },
];

/** The user's purchases (the ledger's purchase entries) with amount, date, Stripe's receipt and a refund button. */
export function Receipts() {
  const purchases = usePurchases();
  // A purchase lands as a new balance (the purchase's answer, Stripe's webhook pushed over the socket): the list is
  // read again then, so the receipt is there as soon as the credits are.
  const balance = useProfile().data?.current_credits;
  const { refetch } = purchases;
  useEffect(() => {
    if (balance !== undefined) void refetch();
  }, [balance, refetch]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Receipts</CardTitle>
        <CardDescription>Unused credits from a card purchase can be refunded within {REFUND_WINDOW_DAYS} days.</CardDescription>
      </CardHeader>
      <CardContent>
        {purchases.isPending ? (
          <Spinner />
        ) : !purchases.data?.length ? (
          <p className="text-sm text-slate-700">No purchases yet.</p>
        ) : (
          <DataTable rows={purchases.data} columns={COLUMNS} rowKey={(purchase) => purchase.transactionId} testId="receipts" />
        )}
      </CardContent>
    </Card>
  );
}

/** Stripe's receipt, and the refund button with its confirmation. */
function ReceiptActions({ purchase }: { purchase: PurchaseReceipt }) {
  const refund = useRefundPurchase();
  const [confirming, setConfirming] = useState(false);
  const amount = amountText(purchase);
  const onRefund = () =>
    refund.mutate(purchase.transactionId, {
      onSuccess: (result) =>
        toast.success('Refund requested', {
          description: `${amount} goes back to your card. Your balance is now ${formatCredits(result.newCredits)}.`,
        }),
      onError: (error) => toast.error('Refund not possible', { description: error.message }),
      onSettled: () => setConfirming(false),
    });
  return (
    <span className="inline-flex items-center gap-3">
      {purchase.receipt_url && (
        <a href={purchase.receipt_url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-brand-700 underline">
          Receipt <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
        </a>
      )}
      {purchase.refunded && <Badge tone="neutral">Refunded</Badge>}
      {purchase.refundable && !confirming && (
        <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
          Request refund
        </Button>
      )}
      {purchase.refundable && confirming && (
        <>
          <Button size="sm" variant="destructive" busy={refund.isPending} onClick={onRefund}>
            Refund {amount} and remove {formatCredits(purchase.credits)}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            Keep
          </Button>
        </>
      )}
    </span>
  );
}
