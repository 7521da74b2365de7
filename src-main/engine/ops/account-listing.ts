import type { EngineContext } from '../context.js';
import type { ContainerInfo } from '../types.js';
import { accountContainer, containerNames, type ContainerListParams } from './containers.js';

/** An account listing's entry: a container, or (with a delimiter) the common prefix of several. */
export type AccountEntry = { kind: 'container'; container: ContainerInfo } | { kind: 'prefix'; prefix: string };

/**
 * The native account listing: the containers `p` selects, names holding the delimiter after the
 * prefix rolled up into one prefix entry each (as Swift's account broker does; `limit` counts
 * entries). A prefix equal to the marker is not repeated: the previous page ended on it.
 */
export function listAccountEntries(ctx: EngineContext, account: string, p: ContainerListParams & { delimiter?: string }): AccountEntry[] {
  const names = containerNames(ctx, account, p).map((n) => n.toString('utf8'));
  const limit = p.limit ?? names.length;
  const prefixLength = (p.prefix ?? '').length;
  const out: AccountEntry[] = [];
  let last: string | undefined;
  for (const name of names) {
    if (out.length >= limit) break;
    const at = p.delimiter ? name.indexOf(p.delimiter, prefixLength) : -1;
    if (at >= 0) {
      const prefix = name.slice(0, at + p.delimiter!.length);
      if (prefix === last || prefix === p.marker) continue;
      out.push({ kind: 'prefix', prefix });
      last = prefix;
      continue;
    }
    const container = accountContainer(ctx, account, name);
    if (container) out.push({ kind: 'container', container });
  }
  return out;
}
