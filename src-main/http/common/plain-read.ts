import { isCofferError } from '../../../src-shared/errors.js';
import { segmentReader, type AccountAcl, type ContainerRef, type Engine, type Identity, type ObjectRead, type RangeRequest, type ReadOptions } from '../../engine/index.js';

/**
 * An object read as `who` (its segments too, with the account ACLs `aclOf` reads, where the
 * protocol has them), built field by field: spread options cost V8's slow object copy on every GET.
 */
export function readOptionsFor(who: Identity, range: RangeRequest | undefined, versionId?: string, aclOf?: (account: string) => AccountAcl | undefined): ReadOptions {
  const options: ReadOptions = { canRead: segmentReader(who, aclOf) };
  if (versionId) options.versionId = versionId;
  if (range) options.range = range;
  return options;
}

/**
 * The read of a plain (not large) object with a satisfiable range, or undefined to take the
 * general path: both front ends' GET reads first and judges its conditionals on what it read.
 */
export async function readPlain(engine: Engine, ref: ContainerRef, name: string, options: ReadOptions): Promise<ObjectRead | undefined> {
  try {
    const read = await engine.getObject(ref, name, options);
    if (!read.info.manifest) return read;
    read.body.destroy();
  } catch (err) {
    if (!isCofferError(err, 'InvalidRange')) throw err;
  }
  return undefined;
}
