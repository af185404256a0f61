import { Coins, Crown, Mail, Video } from 'lucide-react';
import { AccountDetailsList } from '@/components/account-details';
import { PageTitle } from '@/components/page-title';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { usePlanName } from '@/lib/ledger';
import { useProfile } from '@/lib/profile';
import { useUser } from '@/lib/session-context';
import { paths, settingsSection } from '@/lib/paths';
import { FirstSteps } from './first-steps';

export default function DashboardPage() {
  const user = useUser();
  const profile = useProfile();
  const plan = usePlanName(profile.data?.plan_id);

  if (profile.isPending) return <PageSpinner label="Loading your dashboard…" />;
  const data = profile.data;
  const email = data?.email || user.email;

  return (
    <div className="space-y-8">
      <PageTitle title="Dashboard" />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Welcome to ModelLoop</h1>
          <p className="mt-1 text-slate-700">
            Signed in as <span className="font-medium text-slate-900 wrap-anywhere">{email}</span>. Turn your product photos into model videos.
          </p>
        </div>
        <ButtonLink to={paths.videoGeneration} size="lg">
          <Video className="h-5 w-5" aria-hidden="true" /> Generate Video
        </ButtonLink>
      </div>

      <FirstSteps />

      <div className="grid grid-cols-1 gap-6 md:grid-cols-3 [&>*]:min-w-0">
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle>Video Credits</CardTitle>
            <Coins className="h-5 w-5 text-amber-600" aria-hidden="true" />
          </CardHeader>
          <CardContent>
            <p className="text-4xl font-bold text-slate-900" data-testid="dashboard-credits">
              {formatNumber(data?.current_credits ?? 0)}
            </p>
            <p className="mt-1 text-sm text-slate-600">Credits never expire</p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle>Current Plan</CardTitle>
            <Crown className="h-5 w-5 text-brand-600" aria-hidden="true" />
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold text-slate-900" data-testid="dashboard-plan">{plan}</p>
            <ButtonLink to={paths.billing} variant="outline" size="sm" className="mt-3">
              Upgrade Plan
            </ButtonLink>
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle>Account</CardTitle>
            <Mail className="h-5 w-5 text-slate-500" aria-hidden="true" />
          </CardHeader>
          <CardContent>
            <p className="font-medium text-slate-900 wrap-anywhere">{email}</p>
            <ButtonLink to={settingsSection('account')} variant="outline" size="sm" className="mt-3">
              Edit Profile
            </ButtonLink>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Account Details</CardTitle>
        </CardHeader>
        <CardContent>
          {data ? (
            <AccountDetailsList profile={data} />
          ) : (
            <p className="text-slate-700">Your account details could not be loaded. Please reload the page.</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
