/** Time formats of the two APIs. */

/** RFC 1123 date, e.g. `Fri, 16 Aug 2024 07:55:28 GMT` (truncated to the second, as RGW does). */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  // Every response carries the current time: format each second once.
  if (second !== lastHttpSecond) {
    lastHttpDate = new Date(second * 1000).toUTCString();
    lastHttpSecond = second;
  }
  return lastHttpDate;
}
let lastHttpSecond = NaN;
let lastHttpDate = '';

/** Epoch seconds with exactly 5 decimals (X-Timestamp). */
export function xTimestamp(micros: number): string {
  return (Math.floor(micros / 10) / 100000).toFixed(5);
}

const MINUTE_MS = 60_000;
/** Years 0000-9999 keep the plain `YYYY-MM-DDTHH:MM:SS.mmmZ` shape; other instants go the slow way. */
const LAST_PLAIN_MS = 253_402_300_800_000;
let lastMinute = NaN;
let lastMinutePrefix = '';

/**
 * ISO 8601 UTC with milliseconds and Z (listings; clients parse the fraction). Listed objects are
 * mostly written within the same minutes, so the `YYYY-MM-DDTHH:MM:` part is formatted once per
 * minute and only seconds and milliseconds per entry (a Date per entry was the largest single
 * cost of a big listing page).
 */
export function isoMillis(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= LAST_PLAIN_MS) return new Date(ms).toISOString();
  const minute = Math.floor(ms / MINUTE_MS);
  if (minute !== lastMinute) {
    lastMinutePrefix = new Date(minute * MINUTE_MS).toISOString().slice(0, 17);
    lastMinute = minute;
  }
  const inMinute = ms - minute * MINUTE_MS;
  const sec = Math.floor(inMinute / 1000);
  const milli = inMinute - sec * 1000;
  return `${lastMinutePrefix}${sec < 10 ? '0' : ''}${sec}.${milli < 100 ? (milli < 10 ? '00' : '0') : ''}${milli}Z`;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** The three forms of HTTP-date (RFC 9110 5.6.7); a one-digit day is taken, as Swift's parsedate takes it. */
const IMF_FIXDATE = /^[a-z]{3}, (\d{1,2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
const RFC850_DATE = /^[a-z]{6,9}, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
const ASCTIME_DATE = /^[a-z]{3} ([a-z]{3}) ( \d|\d{2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/**
 * Parses an HTTP date; undefined when invalid (invalid conditional dates are ignored, as Swift
 * and AWS ignore them). Only HTTP-dates: Date.parse takes `1` for 2001 and `-1` for 1 BC, so a
 * garbage If-Unmodified-Since failed requests with 412, and five-digit years or 31 February.
 */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  let f: (string | undefined)[];
  let m: RegExpExecArray | null;
  if ((m = IMF_FIXDATE.exec(v))) f = [m[3], m[2], m[1], m[4], m[5], m[6]];
  else if ((m = RFC850_DATE.exec(v))) f = [String(twoDigitYear(Number(m[3]))), m[2], m[1], m[4], m[5], m[6]];
  else if ((m = ASCTIME_DATE.exec(v))) f = [m[6], m[1], m[2], m[3], m[4], m[5]];
  else return undefined;
  const month = MONTHS.indexOf(f[1]!.toLowerCase());
  const [year, day, hour, minute, second] = [f[0], f[2], f[3], f[4], f[5]].map(Number) as [number, number, number, number, number];
  if (month < 0 || hour > 23 || minute > 59 || second > 60) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(hour, minute, Math.min(second, 59));
  return d.getUTCDate() === day && d.getUTCMonth() === month ? d.getTime() : undefined;
}

/** RFC 9110: a two-digit year more than 50 years ahead is the latest past year ending so. */
function twoDigitYear(yy: number): number {
  const thisYear = new Date().getUTCFullYear();
  const y = thisYear - (thisYear % 100) + yy;
  return y > thisYear + 50 ? y - 100 : y;
}
