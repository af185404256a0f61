import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Coins, LayoutDashboard, LogOut, Settings } from 'lucide-react';
import { Link } from 'react-router-dom';
import { formatCredits, initialsFromEmail } from '@/lib/format';
import { useProfile } from '@/lib/profile';
import { useSession, useUser } from '@/lib/session-context';
import { paths, settingsSection } from '@/lib/paths';

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900';

export function AccountMenu() {
  const user = useUser();
  const { signOut } = useSession();
  const profile = useProfile();
  const email = profile.data?.email || user.email;
  const credits = profile.data?.current_credits;

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white hover:bg-brand-700"
      >
        <span aria-hidden="true">{initialsFromEmail(email)}</span>
        <span className="sr-only">Account menu for {email}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-60 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-2">
            <span className="block text-xs text-slate-600">Signed in as</span>
            <span className="block truncate text-sm font-medium text-slate-900">{email}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to={settingsSection('billing')} data-testid="account-menu-credits">
              <Coins className="h-4 w-4 text-amber-600" aria-hidden="true" />
              {credits === undefined ? 'Credits' : formatCredits(credits)}
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to={paths.dashboard}>
              <LayoutDashboard className="h-4 w-4" aria-hidden="true" /> Dashboard
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to={paths.settings}>
              <Settings className="h-4 w-4" aria-hidden="true" /> Settings
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Item className={itemClass} onSelect={() => void signOut()}>
            <LogOut className="h-4 w-4" aria-hidden="true" /> Sign Out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
