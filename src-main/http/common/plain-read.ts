import { isCofferError } from '../../../src-shared/errors.js';
import { segmentReader, type ContainerRef, type Engine, type Identity, type ObjectRead, type RangeRequest, type ReadOptions } from '../../engine/index.js';

/** An object read as `who`, built field by field: spread options cost V8's slow object copy on every GET. */
export function readOptionsFor(who: Identity, range: RangeRequest | undefined, versionId?: string): ReadOptions {
  const options: ReadOptions = { canRead: segmentReader(who) };
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
