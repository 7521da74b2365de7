import { NativeError } from './errors.js';
import { pythonRepr } from './python-repr.js';

// Container ACLs (X-Container-Read / -Write) cleaned as Swift's acl.clean_acl does before it
// stores them: items trimmed and empty ones dropped; `.r`, `.ref`, `.referer` and `.referrer`
// followed by `:` spelled `.r:` (a leading `*` of a domain dropped); any other item kept as
// given, `.rlistings` and an unknown `.designator` without a colon included (Swift 2.30 stores
// them). Refused, with Swift's words: a referrer in a write ACL, a referrer with no host, and a
// `.designator:value` Swift does not know.

const REFERRER = new Set(['.r', '.ref', '.referer', '.referrer']);

/** Python's str.strip(): whitespace at both ends. */
const strip = (s: string): string => s.replace(/^\s+|\s+$/gu, '');

/** The ACL as Swift stores it ('' when nothing is left), or a 400 saying what is wrong. */
export function cleanContainerAcl(kind: 'read' | 'write', value: string): string {
  const items: string[] = [];
  for (const part of value.split(',')) {
    const raw = strip(part);
    if (!raw) continue;
    const colon = raw.indexOf(':');
    if (colon < 0) {
      items.push(raw);
      continue;
    }
    const first = strip(raw.slice(0, colon));
    let second = strip(raw.slice(colon + 1));
    if (!first.startsWith('.')) {
      items.push(raw);
      continue;
    }
    if (!REFERRER.has(first)) throw new NativeError(400, `Unknown designator ${pythonRepr(first)} in ACL: ${pythonRepr(raw)}`);
    if (kind === 'write') throw new NativeError(400, `Referrers not allowed in write ACL: ${pythonRepr(raw)}`);
    const negate = second.startsWith('-');
    if (negate) second = strip(second.slice(1));
    if (second && second !== '*' && second.startsWith('*')) second = strip(second.slice(1));
    if (!second || second === '.') throw new NativeError(400, `No host/domain value after referrer designation in ACL: ${pythonRepr(raw)}`);
    items.push(`.r:${negate ? '-' : ''}${second}`);
  }
  return items.join(',');
}
