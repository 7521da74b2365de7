import { Engine, type ContainerRef, type Identity } from '../../engine/index.js';
import type { S3Address } from './router.js';

/**
 * The bucket's namespace: `/tenant:bucket`, else the caller's tenant, else (anonymous) the one
 * tenant holding that name; a name several tenants hold is the empty tenant's, as RGW resolves it.
 * PostObject asks it again once its form has named the signer.
 */
export function bucketRef(engine: Engine, a: S3Address, who: Identity): ContainerRef {
  const name = a.bucket!;
  if (a.tenant !== undefined) return { tenant: a.tenant, container: name };
  if (who.account) return Engine.ref(who.account, name);
  const owners = engine.tenantsWithContainer(name);
  return { tenant: owners.length === 1 ? owners[0]! : '', container: name };
}
