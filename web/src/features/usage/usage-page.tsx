import type { CreditTransaction } from '@contracts/api';
import { RecentGenerations } from '@/components/generation/recent-generations';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useCreditSummary, useCreditTransactions } from '@/lib/ledger';
import { useProfile } from '@/lib/profile';

const TYPE_LABELS: Record<CreditTransaction['transaction_type'], { label: string; tone: 'brand' | 'success' | 'neutral' | 'warning' }> = {
  signup_bonus: { label: 'Sign-up bonus', tone: 'brand' },
  purchase: { label: 'Purchase', tone: 'success' },
  debit: { label: 'Usage', tone: 'neutral' },
  refund: { label: 'Refund', tone: 'warning' },
  refund_of_purchase: { label: 'Purchase refunded', tone: 'neutral' },
};

const COLUMNS: Column<CreditTransaction>[] = [
  { header: 'Date', cell: (entry) => formatDateTime(entry.created_at), className: 'text-slate-700' },
  { header: 'Description', cell: (entry) => entry.description, className: 'text-slate-900' },
  {
    header: 'Type',
    cell: (entry) => <Badge tone={TYPE_LABELS[entry.transaction_type].tone}>{TYPE_LABELS[entry.transaction_type].label}</Badge>,
  },
  {
    header: 'Amount',
    cell: (entry) => `${entry.amount > 0 ? '+' : ''}${formatNumber(entry.amount)}`,
    align: 'right',
    className: (entry) => cn('font-medium', entry.amount < 0 ? 'text-red-700' : 'text-emerald-700'),
  },
  { header: 'Balance after', cell: (entry) => formatNumber(entry.balance_after), align: 'right', className: 'text-slate-900' },
];

export default function UsagePage() {
  const profile = useProfile();
  const ledger = useCreditTransactions();
  // Totals over the whole ledger, summed by the server: the list below holds only the newest 10 entries.
  const summary = useCreditSummary();

  const stats = [
    { id: 'available', label: 'Credits available', value: profile.data?.current_credits },
    { id: 'bought', label: 'Credits bought', value: summary.data?.bought },
    { id: 'spent', label: 'Credits spent', value: summary.data?.spent, note: summary.data ? `${formatNumber(summary.data.charged)} charged, ${formatNumber(summary.data.refunded)} refunded` : undefined },
    { id: 'refunded', label: 'Credits refunded', value: summary.data?.refunded, note: 'Returned for failed or cancelled work' },
  ];

  return (
    <div className="space-y-8">
      <PageHeader title="Usage" description="Your credits, what you bought and what you spent them on." />

      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {stats.map((stat) => (
          <li key={stat.id}>
            <Card className="p-5">
              <p className="text-sm text-slate-600">{stat.label}</p>
              <p className="mt-1 text-3xl font-bold text-slate-900" data-testid={`usage-${stat.id}`}>
                {stat.value === undefined ? '—' : formatNumber(stat.value)}
              </p>
              {stat.note && <p className="mt-1 text-xs text-slate-600">{stat.note}</p>}
            </Card>
          </li>
        ))}
      </ul>

      <Card>
        <CardHeader>
          <CardTitle>Credit transactions</CardTitle>
          <CardDescription>Your 10 most recent transactions.</CardDescription>
        </CardHeader>
        <CardContent>
          {ledger.isPending ? (
            <Spinner label="Loading transactions…" />
          ) : ledger.isError ? (
            <p className="text-slate-700">Transactions could not be loaded.</p>
          ) : ledger.data.length === 0 ? (
            <p className="text-slate-700">No transactions yet.</p>
          ) : (
            <DataTable
              rows={ledger.data}
              columns={COLUMNS}
              rowKey={(entry) => entry.id}
              caption="Credit transactions, newest first"
              scrollLabel="Credit transactions"
              className="min-w-[36rem]"
              rowTestId="transaction-row"
              stacked={{ label: 'Credit transactions, newest first' }}
            />
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Recent generations</CardTitle>
          <CardDescription>Your 10 most recent images and videos.</CardDescription>
        </CardHeader>
        <CardContent>
          <RecentGenerations />
        </CardContent>
      </Card>
    </div>
  );
}
