import type { PurchaseReceipt } from '@contracts/api';
import { REFUND_WINDOW_DAYS } from '@contracts/api';
import { ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatDate, formatNumber, formatUsd } from '@/lib/format';
import { usePurchases, useRefundPurchase } from './use-payments';

/** The user's purchases (the ledger's purchase entries) with amount, date, Stripe's receipt and a refund button. */
export function Receipts() {
  const purchases = usePurchases();
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
          <table className="w-full text-left text-sm" data-testid="receipts">
            <thead className="text-slate-700">
              <tr>
                <th scope="col" className="py-2 font-medium">Date</th>
                <th scope="col" className="py-2 font-medium">Credits</th>
                <th scope="col" className="py-2 font-medium">Amount</th>
                <th scope="col" className="py-2 font-medium">
                  <span className="sr-only">Receipt and refund</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {purchases.data.map((purchase) => (
                <ReceiptRow key={purchase.transactionId} purchase={purchase} />
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}

function ReceiptRow({ purchase }: { purchase: PurchaseReceipt }) {
  const refund = useRefundPurchase();
  const [confirming, setConfirming] = useState(false);
  const amount = purchase.amount_cents === undefined ? 'Test payment' : formatUsd(purchase.amount_cents / 100);
  const onRefund = () =>
    refund.mutate(purchase.transactionId, {
      onSuccess: (result) =>
        toast.success('Refund requested', {
          description: `${amount} goes back to your card. Your balance is now ${formatNumber(result.newCredits)} credits.`,
        }),
      onError: (error) => toast.error('Refund not possible', { description: error.message }),
      onSettled: () => setConfirming(false),
    });
  return (
    <tr className="border-t border-slate-200">
      <td className="py-2">{formatDate(purchase.created_at)}</td>
      <td className="py-2">{formatNumber(purchase.credits)}</td>
      <td className="py-2">{amount}</td>
      <td className="py-2 text-right">
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
                Refund {amount} and remove {formatNumber(purchase.credits)} credits
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </>
          )}
        </span>
      </td>
    </tr>
  );
}
