// What test files use: the run's shared Swift and RGW, and the rule for when they are missing.
// Locally a test that needs a server not installed here reports itself skipped, the reason in
// its name; in CI (CI=true) it runs, and fails saying what is missing.
import { describe, inject } from 'vitest';
import { sharedReference, unavailableReason, type ReferenceEndpoints, type ReferenceKind } from './servers.js';

export type { RgwEndpoints, RgwUser } from './rgw.js';
export { rgwAdmin } from './rgw.js';
export type { SwiftEndpoints, SwiftUser } from './swift.js';

const started = new Map<ReferenceKind, Promise<unknown>>();

/** The run's server of this kind, started on first use (once per run, whichever file asks first). */
export function reference<K extends ReferenceKind>(kind: K): Promise<ReferenceEndpoints[K]> {
  let p = started.get(kind) as Promise<ReferenceEndpoints[K]> | undefined;
  if (!p) {
    p = sharedReference(inject('referenceRunDir'), inject('referenceOwnerPid'), kind);
    started.set(kind, p);
  }
  return p;
}

/** Why tests of this kind are skipped here, or undefined when they run (always in CI). */
export function skipReason(kind: ReferenceKind): string | undefined {
  if (process.env.CI === 'true') return undefined;
  return unavailableReason(kind);
}

/** `describe`, or where the server is not installed (and not in CI) a skipped one that says why. */
export function describeWith(kind: ReferenceKind, title: string, body: () => void): void {
  const reason = skipReason(kind);
  if (reason) describe.skip(`${title} (skipped: ${reason})`, body);
  else describe(title, body);
}
