import type { ObjectInfo } from '../../../engine/index.js';
import type { HeaderValues } from '../../common/exchange.js';
import { encodePath } from '../../common/url.js';

/** The marker headers of large objects on GET/HEAD (§6.3). */
export function manifestHeaders(o: ObjectInfo): HeaderValues {
  const m = o.manifest;
  if (m?.kind === 'slo') return { 'X-Static-Large-Object': 'True' };
  if (m?.kind === 'dlo') return { 'X-Object-Manifest': `${encodePath(m.container)}/${encodePath(m.prefix)}` };
  return {};
}
