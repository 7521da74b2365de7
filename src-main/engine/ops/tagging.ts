import { CofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import type { ContainerRef, Tag } from '../types.js';
import { findVersion } from './read-object.js';
import { updateVersionInPlace } from './version-in-place.js';

/**
 * AWS's limits on a tag set: 10 tags on an object, 50 on a bucket; keys of 1-128 and values of
 * up to 256 Unicode characters (code points, not UTF-16 units); no key twice; `aws:` is AWS's own.
 */
export const TAG_LIMITS = { object: 10, bucket: 50, keyChars: 128, valueChars: 256 } as const;

const chars = (s: string) => [...s].length;

/** Throws InvalidTag (or TooManyTags, AWS's BadRequest) when a tag set breaks AWS's rules. */
export function checkTags(tags: Tag[], kind: 'object' | 'bucket'): void {
  const max = TAG_LIMITS[kind];
  if (tags.length > max) throw new CofferError('TooManyTags', kind === 'object' ? 'Object tags cannot be greater than 10' : 'Bucket tag count cannot be greater than 50');
  const seen = new Set<string>();
  for (const { key, value } of tags) {
    if (key === '' || chars(key) > TAG_LIMITS.keyChars) throw new CofferError('InvalidTag', 'The TagKey you have provided is too long, max 128');
    if (chars(value) > TAG_LIMITS.valueChars) throw new CofferError('InvalidTag', 'The TagValue you have provided is too long, max 256');
    if (key.toLowerCase().startsWith('aws:')) {
      throw new CofferError('InvalidTag', kind === 'object' ? 'Your TagKey cannot be prefixed with aws:' : 'System tags cannot be added/updated by requester');
    }
    if (seen.has(key)) throw new CofferError('InvalidTag', 'Cannot provide multiple Tags with the same key');
    seen.add(key);
  }
}

/** The tags of one version (the current one when no id is given). */
export function getObjectTags(ctx: EngineContext, ref: ContainerRef, name: string, versionId?: string): { versionId: string | null; tags: Tag[] } {
  const found = findVersion(ctx, ref, name, versionId);
  return { versionId: found.record.versionId, tags: found.record.tags ?? [] };
}

/**
 * Replaces (or, with null, removes) the tags of one version in place: no new version, the same
 * ETag and Last-Modified, as AWS keeps them. Returns the version's id.
 */
export function setObjectTags(ctx: EngineContext, ref: ContainerRef, name: string, versionId: string | undefined, tags: Tag[] | null): Promise<string | null> {
  if (tags) checkTags(tags, 'object');
  return updateVersionInPlace(ctx, ref, name, versionId, (rec) => {
    if (tags?.length) rec.tags = tags.map((t) => ({ key: t.key, value: t.value }));
    else delete rec.tags;
    return rec;
  });
}
