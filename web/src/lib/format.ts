import { creditCount } from '@contracts/plural';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export const formatUsd = (amount: number) => usd.format(amount);
export const formatNumber = (value: number) => value.toLocaleString('en-US');

export function formatDate(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : dateFormat.format(date);
}

export function formatDateTime(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : dateTimeFormat.format(date);
}

/** plan_id as shown to people: underscores become spaces, 'Free Trial' when there is none. */
export function planName(planId: string | undefined): string {
  if (!planId) return 'Free Trial';
  const spaced = planId.replace(/_/g, ' ').trim();
  return spaced.replace(/\b\w/g, (letter) => letter.toUpperCase()) || 'Free Trial';
}

/** Avatar initials: two when the e-mail's local part splits on dot, underscore or hyphen, else its first two letters. */
export function initialsFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  const parts = local.split(/[._-]/).filter(Boolean);
  const initials = parts.length >= 2 ? `${parts[0]![0]}${parts[1]![0]}` : local.slice(0, 2);
  return initials.toUpperCase() || '?';
}

export const shortId = (id: string) => id.slice(0, 8);

/** "1 credit", "3 credits" (the one plural helper, creditCount); "…" while the figure is not known yet. */
export const formatCredits = (count: number | undefined) => (count === undefined ? '…' : creditCount(count));
