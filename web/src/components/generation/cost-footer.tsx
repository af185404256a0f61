import { Coins, type LucideIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatCredits } from '@/lib/format';

/**
 * The foot of a generation form: what the work costs, the user's balance and the submit button. The numbers come in
 * as they are (computed by the page); `undefined` while still loading. `stacked` (the video form): the figures in a
 * band above a full-width button; otherwise one row with the button on the right.
 */
export function CostFooter(props: {
  cost: number | undefined;
  balance: number | undefined;
  label: string;
  icon: LucideIcon;
  busy: boolean;
  stacked?: boolean;
  /** Nothing to submit (e.g. an upscale that would not enlarge the picture); the page says why. */
  disabled?: boolean;
}) {
  const { icon: Icon } = props;
  const cost = (
    <>
      <Coins className="h-4 w-4 text-amber-600" aria-hidden="true" />
      Cost: <strong className="text-slate-900">{formatCredits(props.cost)}</strong>
    </>
  );
  if (props.stacked) {
    return (
      <>
        <div className="flex items-center justify-between rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700">
          <span className="flex items-center gap-2">{cost}</span>
          <span>You have {formatCredits(props.balance)}</span>
        </div>
        <Button type="submit" size="lg" className="w-full" busy={props.busy} disabled={props.disabled}>
          <Icon className="h-5 w-5" aria-hidden="true" /> {props.label}
        </Button>
      </>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
      <p className="flex items-center gap-2 text-sm text-slate-700">
        {cost}
        {props.balance !== undefined && <span>· You have {formatCredits(props.balance)}</span>}
      </p>
      <Button type="submit" size="lg" busy={props.busy} disabled={props.disabled}>
        <Icon className="h-4 w-4" aria-hidden="true" /> {props.label}
      </Button>
    </div>
  );
}
