import type { ObjectInfo } from '../../../engine/index.js';
import type { HeaderValues } from '../../common/exchange.js';
import { encodePath } from '../../common/url.js';

/**
 * The marker headers of large objects on GET/HEAD (§6.3): an SLO's X-Manifest-Etag (its stored
 * manifest document's MD5, as Swift's slo sends it), a DLO's X-Object-Manifest as it was sent.
 */
export function manifestHeaders(o: ObjectInfo): HeaderValues {
  const m = o.manifest;
  if (m?.kind === 'slo') return o.manifestEtag !== undefined ? { 'X-Static-Large-Object': 'True', 'X-Manifest-Etag': o.manifestEtag } : { 'X-Static-Large-Object': 'True' };
  if (m?.kind === 'dlo') return { 'X-Object-Manifest': m.header ?? `${encodePath(m.container)}/${encodePath(m.prefix)}` };
  return {};
}
