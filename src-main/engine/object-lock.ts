/**
 * S3 Object Lock (write-once-read-many) as rules: what a container's lock configuration may say,
 * the retention a new version gets by default, whether a version may be removed, and whether a
 * retention may be changed. Pure: the records are ops/object-lock.ts's, the XML and headers the
 * S3 front end's. The rules are AWS's ("Locking objects with Object Lock"); where AWS leaves a
 * case open (a change of mode), RGW's reading of it.
 */
import { CofferError } from '../../src-shared/errors.js';
import { DAY_MS } from './lifecycle.js';

export type RetentionMode = 'GOVERNANCE' | 'COMPLIANCE';
export const RETENTION_MODES: readonly RetentionMode[] = ['GOVERNANCE', 'COMPLIANCE'];

/** A version's retention: until when (milliseconds since the epoch) and how strictly it is kept. */
export interface ObjectRetention {
  mode: RetentionMode;
  until: number;
}

/** The retention every new version of a container gets unless its request names one: a period in days or years. */
export interface DefaultRetention {
  mode: RetentionMode;
  days?: number;
  years?: number;
}

/** A container's object lock: present only on containers made with it (or enabled later, as AWS allows). */
export interface ObjectLockConfig {
  defaultRetention?: DefaultRetention;
}

/** What a write may ask of a new version's lock (S3's x-amz-object-lock-* headers). */
export interface LockSettings {
  retention?: ObjectRetention;
  /** true: ON, false: OFF (set, and shown so); absent: never set. */
  legalHold?: boolean;
}

/** What a version carries of its lock (records and infos alike). */
export interface LockState {
  retention?: ObjectRetention;
  legalHold?: boolean;
}

/** A year of default retention, as RGW and AWS's console count it. */
const YEAR_DAYS = 365;
/** AWS's longest default retention (100 years). */
const MAX_DAYS = 36_500;
const MAX_YEARS = 100;

/** Why a default retention cannot be kept (AWS's InvalidArgument), or undefined. */
export function defaultRetentionProblem(d: DefaultRetention): string | undefined {
  const period = d.days ?? d.years;
  if (period === undefined || (d.days !== undefined && d.years !== undefined)) return 'Either Days or Years must be given, not both';
  if (!Number.isInteger(period) || period <= 0) return 'Default retention period must be a positive integer value';
  if ((d.days ?? 0) > MAX_DAYS || (d.years ?? 0) > MAX_YEARS) return 'Default retention period is too large';
  return undefined;
}

/** The retention a version written at `nowMs` gets from its container, when the container has a default. */
export function defaultRetentionAt(config: ObjectLockConfig | undefined, nowMs: number): ObjectRetention | undefined {
  const d = config?.defaultRetention;
  if (!d) return undefined;
  const days = d.days ?? (d.years ?? 0) * YEAR_DAYS;
  return { mode: d.mode, until: nowMs + days * DAY_MS };
}

/** Whether a version is protected now: a legal hold, or a retention date still ahead. */
export function isLocked(v: LockState, nowMs: number): boolean {
  return v.legalHold === true || (v.retention !== undefined && v.retention.until > nowMs);
}

/** An object lock refusal; `objectLock` in its details: the front ends may show its words as they are. */
export function lockError(code: 'AccessDenied' | 'InvalidArgument' | 'InvalidBucketState', message: string): CofferError {
  return new CofferError(code, message, { objectLock: true });
}

export const LOCKED_MESSAGE = 'Access Denied because object protected by object lock.';

/**
 * Refuses the removal of a protected version (AccessDenied, as AWS). A governance retention
 * gives way to `bypass` (the caller asked for it and may: the front end decides that); a
 * compliance retention and a legal hold never do.
 */
export function requireRemovable(v: LockState, nowMs: number, bypass: boolean): void {
  if (v.legalHold === true) throw lockError('AccessDenied', LOCKED_MESSAGE);
  const r = v.retention;
  if (!r || r.until <= nowMs) return;
  if (r.mode === 'COMPLIANCE' || !bypass) throw lockError('AccessDenied', LOCKED_MESSAGE);
}

/**
 * Checks a change of a version's retention (null: removed). A retention that has run out may
 * be changed at will; one in force may be extended in its own mode. Shortening it, removing it
 * or leaving governance mode needs the governance bypass; compliance never gives way.
 */
export function requireRetentionChange(current: ObjectRetention | undefined, next: ObjectRetention | null, nowMs: number, bypass: boolean): void {
  if (!current || current.until <= nowMs) return;
  const keeps = next !== null && next.until >= current.until;
  if (current.mode === 'COMPLIANCE') {
    if (!keeps) throw lockError('AccessDenied', 'A compliance-mode retention cannot be shortened or removed.');
    if (next.mode !== 'COMPLIANCE') throw lockError('AccessDenied', 'A compliance-mode retention cannot be changed to governance mode.');
    return;
  }
  if (keeps && next.mode === 'GOVERNANCE') return;
  if (!bypass) throw lockError('AccessDenied', 'Changing a governance-mode retention other than by extending it needs x-amz-bypass-governance-retention.');
}
