import type { Profile } from '@contracts/api';
import { formatDate, shortId } from '@/lib/format';

/** User id (first 8 characters), e-mail, member-since and last-login dates, as a description list. */
export function AccountDetailsList({ profile }: { profile: Profile }) {
  const rows = [
    { term: 'User ID', detail: <span className="font-mono">{shortId(profile.id)}</span> },
    { term: 'Email', detail: profile.email },
    { term: 'Member Since', detail: formatDate(profile.created_at) },
    { term: 'Last Login', detail: formatDate(profile.last_login) },
  ];
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {rows.map((row) => (
        <div key={row.term} className="rounded-lg bg-slate-50 p-4">
          <dt className="text-sm text-slate-600">{row.term}</dt>
          <dd className="mt-1 break-all font-medium text-slate-900">{row.detail}</dd>
        </div>
      ))}
    </dl>
  );
}
