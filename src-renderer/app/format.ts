// Numbers, sizes and dates as the user's locale writes them.
import { strings } from './strings';

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? strings.common.unknown : integer.format(n);
}

/** 1,000-based units, as file managers show them; null is "unknown", never zero. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return strings.common.unknown;
  const units = strings.units.bytes;
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? integer.format(value) : oneDecimal.format(value)} ${units[unit]}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return strings.common.unknown;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' });

/** A day given as a UTC midnight (S3 lifecycle dates), without a time that would shift it a day in some zones. */
export function formatUtcDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : utcDay.format(date);
}
