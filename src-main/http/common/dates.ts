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

/** Parses an HTTP date; undefined when invalid (invalid conditional dates are ignored). */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
