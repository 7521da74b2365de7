import type { ObjectInfo } from '../../../engine/index.js';
import type { Exchange, HeaderValues } from '../../common/exchange.js';
import { decodeStrict, encodePath } from '../../common/url.js';

const FORMAT_ERROR = 'X-Object-Manifest must be in the format container/prefix';

/**
 * `X-Object-Manifest: {container}/{prefix}` (URL-encoded) on a PUT makes the object a DLO (§10.2).
 * Returns the target, undefined when the header is absent, or the 400 message. Swift's rule:
 * both parts non-empty, no query characters, the prefix not starting with `/`.
 */
export function readDloTarget(x: Exchange): { container: string; prefix: string } | undefined | string {
  const raw = x.header('x-object-manifest');
  if (raw === undefined) return undefined;
  const value = decodeStrict(raw.trim());
  if (value === undefined || value.includes('?') || value.includes('&')) return FORMAT_ERROR;
  const slash = value.indexOf('/');
  const container = slash < 0 ? '' : value.slice(0, slash);
  const prefix = slash < 0 ? '' : value.slice(slash + 1);
  if (!container || !prefix || prefix.startsWith('/')) return FORMAT_ERROR;
  return { container, prefix };
}

/** The marker headers of large objects on GET/HEAD (§6.3). */
export function manifestHeaders(o: ObjectInfo): HeaderValues {
  const m = o.manifest;
  if (m?.kind === 'slo') return { 'X-Static-Large-Object': 'True' };
  if (m?.kind === 'dlo') return { 'X-Object-Manifest': `${encodePath(m.container)}/${encodePath(m.prefix)}` };
  return {};
}
