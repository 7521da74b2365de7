// How one used/limit pair reads: a fraction for the bar, or why there is none.
export type QuotaLevel =
  | { kind: 'unknown' }
  | { kind: 'none'; used: number }
  /** `counted` is what the limit is measured against: `used`, or the store's own quota figure. */
  | { kind: 'limited'; used: number; counted: number; max: number; percent: number; warn: boolean; over: boolean };

export const WARN_AT = 0.9;

/**
 * `counted` is the figure the store's quota enforces where it differs from `used` (bytes rounded
 * up per object): the bar and its warnings follow it, or a full store would look roomy.
 */
export function quotaLevel(used: number | null, max: number | null, counted?: number): QuotaLevel {
  if (used === null) return { kind: 'unknown' };
  if (max === null || max < 0) return { kind: 'none', used };
  const measured = counted ?? used;
  const fraction = max === 0 ? (measured > 0 ? Infinity : 1) : measured / max;
  return { kind: 'limited', used, counted: measured, max, percent: Math.min(999, Math.round(fraction * 100)), warn: fraction >= WARN_AT, over: fraction > 1 };
}

export const BYTE_UNITS = [
  { label: 'B', factor: 1 },
  { label: 'KB', factor: 1e3 },
  { label: 'MB', factor: 1e6 },
  { label: 'GB', factor: 1e9 },
  { label: 'TB', factor: 1e12 },
] as const;

/** A byte limit as the dialog starts it: the largest unit that writes it as a whole number. */
export function splitBytes(bytes: number | null): { value: string; unit: number } {
  if (bytes === null || bytes < 0) return { value: '', unit: 3 };
  for (let i = BYTE_UNITS.length - 1; i >= 0; i--) {
    const f = BYTE_UNITS[i]!.factor;
    if (bytes % f === 0) return { value: String(bytes / f), unit: i };
  }
  return { value: String(bytes), unit: 0 };
}

/** By how much an upload would go past a quota: bytes and objects over the limit (0 where it fits). */
export interface QuotaExcess {
  bytes: number;
  objects: number;
}

/**
 * Whether adding `incoming` to `usage` goes past `limits`, for the warning before an upload
 * starts. null when it fits, and also when it cannot be told (usage or limit unknown): the
 * server still enforces its quota, the warning is only a courtesy.
 */
export function quotaExceededBy(
  usage: { bytes: number | null; objects: number | null },
  limits: { maxBytes: number | null; maxObjects: number | null },
  incoming: { bytes: number; objects: number },
): QuotaExcess | null {
  const over = (used: number | null, max: number | null, adding: number) => (used === null || max === null || max < 0 ? 0 : Math.max(0, used + adding - max));
  const excess = { bytes: over(usage.bytes, limits.maxBytes, incoming.bytes), objects: over(usage.objects, limits.maxObjects, incoming.objects) };
  return excess.bytes > 0 || excess.objects > 0 ? excess : null;
}
