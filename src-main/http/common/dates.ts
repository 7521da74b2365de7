/** Time formats of the two APIs. */

/** RFC 1123 date, e.g. `Fri, 16 Aug 2024 07:55:28 GMT` (truncated to the second, as RGW does). */
export function httpDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString();
}

/** Epoch seconds with exactly 5 decimals (X-Timestamp). */
export function xTimestamp(micros: number): string {
  return (Math.floor(micros / 10) / 100000).toFixed(5);
}

/** ISO 8601 UTC with milliseconds and Z (listings; clients parse the fraction). */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

/** Parses an HTTP date; undefined when invalid (invalid conditional dates are ignored). */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
