import type { AccountAcl } from '../../engine/index.js';
import { NativeError } from './errors.js';
import { pythonRepr } from './python-repr.js';

// Swift's account ACL header, `X-Account-Access-Control` (tempauth's version-2 ACL): a JSON object
// whose keys `admin`, `read-write` and `read-only` each list identities.

const ROLES = ['admin', 'read-write', 'read-only'] as const;

/** tempauth's refusal of an ACL it cannot take, with its reason and the input. */
function invalid(reason: string, input: string): NativeError {
  return new NativeError(400, `X-Account-Access-Control invalid: ${reason}\n\nInput: ${input}\n`, { 'Content-Type': 'text/plain; charset=UTF-8' });
}

/**
 * The ACL a request sets: undefined when the header is absent, null when it clears the ACL (an
 * empty value, or `{}`), else the roles given. Refused as tempauth refuses it: not a JSON object,
 * a key it does not know, a role that is not a list of strings.
 */
export function readAccountAcl(value: string | undefined): AccountAcl | null | undefined {
  if (value === undefined) return undefined;
  if (value === '') return null;
  let data: unknown;
  try {
    data = JSON.parse(value);
  } catch {
    data = undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid(`Syntax error in input (${pythonRepr(value)})`, value);
  const doc = data as Record<string, unknown>;
  for (const key of Object.keys(doc)) {
    if (!(ROLES as readonly string[]).includes(key)) throw invalid(`Key ${JSON.stringify(key)} not recognized`, value);
  }
  const acl: AccountAcl = {};
  for (const role of ROLES) {
    if (!(role in doc)) continue;
    const list = doc[role];
    if (!Array.isArray(list)) throw invalid(`Value for key ${JSON.stringify(role)} must be a list`, value);
    if (!list.every((g) => typeof g === 'string')) throw invalid(`Elements of ${JSON.stringify(role)} list must be strings`, value);
    acl[role] = list as string[];
  }
  return Object.keys(acl).length ? acl : null;
}

/** The ACL as Swift shows it back: JSON with sorted keys, no spaces, non-ASCII escaped (format_acl_v2). */
export function formatAccountAcl(acl: AccountAcl): string {
  const sorted = Object.fromEntries(Object.entries(acl).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify(sorted).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
