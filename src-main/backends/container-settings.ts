// What every backend with lifecycle rules and tags shares: the fingerprint a save starts from,
// and a save's rules merged into the configuration the server holds (rules the app cannot show
// in full are taken from there, never rebuilt from what the app shows).
import { createHash } from 'node:crypto';
import { CofferError } from '../../src-shared/errors.js';
import type { LifecycleRuleChange, LifecycleRuleFields } from '../../src-shared/model/container-settings.js';

/** A configuration's fingerprint: the same for the same rules (or tags), in the same order. */
export function basisOf(config: unknown): string {
  return createHash('sha256').update(JSON.stringify(config ?? null)).digest('base64url').slice(0, 22);
}

/** Refuses a save that did not start from the configuration the server holds now. */
export function requireBasis(current: unknown, basis: string, what: 'lifecycle rules' | 'tags', container: string): void {
  if (basisOf(current) !== basis) {
    throw new CofferError('PreconditionFailed', `The ${what} of ${container} were changed elsewhere since they were shown; look at them again before saving`);
  }
}

/** How one backend's own rule type is named, built from the app's fields, and turned on or off. */
export interface RuleCodec<R> {
  id(rule: R): string | undefined;
  fromFields(fields: LifecycleRuleFields): R;
  withEnabled(rule: R, enabled: boolean): R;
}

/** The rules to put: each change built from its fields or taken (by id) from the rules the server holds. */
export function mergeRules<R>(current: readonly R[], changes: readonly LifecycleRuleChange[], codec: RuleCodec<R>): R[] {
  return changes.map((change) => {
    if (change.kind === 'fields') {
      const { kind: _kind, ...fields } = change;
      return codec.fromFields(fields);
    }
    const kept = current.find((r) => codec.id(r) === change.id);
    if (kept === undefined) throw new CofferError('PreconditionFailed', `The lifecycle rule ${change.id} is no longer there; look at the rules again before saving`);
    return change.enabled === undefined ? kept : codec.withEnabled(kept, change.enabled);
  });
}
