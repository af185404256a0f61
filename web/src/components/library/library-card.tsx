// One card of a library screen (Clothing, Models): the picture, the name as the card's heading, a few lines about it,
// and a menu of actions on it (destructive ones last, after a separator).
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreVertical, type LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';

export interface CardAction {
  label: string;
  Icon: LucideIcon;
  onSelect: () => void;
  destructive?: boolean;
}

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900';
const destructiveClass = 'text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800';

export interface LibraryCardProps {
  name: string;
  /** The picture on top (3:4), already sized to fill it. */
  picture: ReactNode;
  /** What the card says about the entry, under its name. */
  description?: ReactNode;
  /** The small line at the bottom (date, use). */
  meta: ReactNode;
  actions: CardAction[];
  testId?: string;
}

export function LibraryCard({ name, picture, description, meta, actions, testId }: LibraryCardProps) {
  const titleId = useId();
  const safe = actions.filter((action) => !action.destructive);
  const destructive = actions.filter((action) => action.destructive);
  const menuItem = (action: CardAction) => (
    <DropdownMenu.Item key={action.label} className={cn(itemClass, action.destructive && destructiveClass)} onSelect={action.onSelect}>
      <action.Icon className="h-4 w-4" aria-hidden="true" /> {action.label}
    </DropdownMenu.Item>
  );
  return (
    <Card className="flex h-full flex-col overflow-hidden" aria-labelledby={titleId} role="article" data-testid={testId}>
      {picture}
      <div className="flex flex-1 items-start gap-2 p-4">
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="line-clamp-2 break-words font-semibold text-slate-900" title={name}>
            {name}
          </h3>
          {description}
          <p className="mt-2 text-xs text-slate-600">{meta}</p>
        </div>
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger className="-mr-2 rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900" aria-label={`Actions for ${name}`}>
            <MoreVertical className="h-4 w-4" aria-hidden="true" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content align="end" sideOffset={4} className="z-40 min-w-44 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg">
              {safe.map(menuItem)}
              {destructive.length > 0 && <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />}
              {destructive.map(menuItem)}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
    </Card>
  );
}
