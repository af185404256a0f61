import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { AccountDetailsList } from '@/components/account-details';
import { PageHeader } from '@/components/page-header';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { usePlanName } from '@/lib/ledger';
import { useProfile } from '@/lib/profile';
import { DangerZone } from './danger-zone';
import { SecuritySection } from './security-section';
import { YourData } from './your-data';
import { ShopsSection } from '@/features/shops';
import { paths } from '@/lib/paths';

export default function SettingsPage() {
  const profile = useProfile();
  const { hash } = useLocation();
  const ready = !profile.isPending;
  const plan = usePlanName(profile.data?.plan_id);

  // #account, #billing, #security, #your-data, #danger-zone: scroll to the section once the page has its content.
  useEffect(() => {
    if (!ready || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [ready, hash]);

  if (!ready) return <PageSpinner label="Loading your settings…" />;
  const data = profile.data;

  return (
    <div className="space-y-8">
      <PageHeader title="Settings" description="Your account, credits, security and data." />

      <section id="account" aria-labelledby="account-title">
        <Card>
          <CardHeader>
            <CardTitle id="account-title">Account Information</CardTitle>
            <CardDescription>The details of your ModelLoop account.</CardDescription>
          </CardHeader>
          <CardContent>
            {data ? <AccountDetailsList profile={data} /> : <p className="text-slate-700">Account information is unavailable.</p>}
          </CardContent>
        </Card>
      </section>

      <section id="billing" aria-labelledby="billing-title">
        <Card>
          <CardHeader>
            <CardTitle id="billing-title">Credits &amp; Billing</CardTitle>
            <CardDescription>Credits are prepaid and never expire.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6 sm:grid-cols-2">
            <div className="rounded-lg bg-slate-50 p-4">
              <p className="text-sm text-slate-600">Current credits</p>
              <p className="mt-1 text-3xl font-bold text-slate-900" data-testid="settings-credits">
                {formatNumber(data?.current_credits ?? 0)}
              </p>
              <ButtonLink to={paths.billing} size="sm" className="mt-3">
                Buy More Credits
              </ButtonLink>
            </div>
            <div className="rounded-lg bg-slate-50 p-4">
              <p className="text-sm text-slate-600">Current plan</p>
              <p className="mt-1 text-xl font-bold text-slate-900">{plan}</p>
              <ButtonLink to={paths.billing} size="sm" variant="outline" className="mt-3">
                Manage Billing
              </ButtonLink>
            </div>
          </CardContent>
        </Card>
      </section>

      <ShopsSection />
      <SecuritySection email={data?.email} />
      <YourData />
      <DangerZone email={data?.email} />
    </div>
  );
}
