import type { Tag } from '../../../engine/index.js';
import { el } from '../../common/xml.js';
import { S3Error, s3 } from '../errors.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';

async function readTagging(call: BucketCall<OpOf<'PutObjectTagging' | 'PutBucketTagging'>>): Promise<Tag[]> {
  return tagsOfDocument(await readXml(call.x.req, call.op.document));
}

/**
 * `<Tagging><TagSet><Tag><Key/><Value/></Tag>...` as tags; anything else is MalformedXML. Limits
 * are the engine's. PutObjectTagging's body, and POST Object's `tagging` field.
 */
export function tagsOfDocument(doc: Record<string, unknown> | undefined): Tag[] {
  const root = doc?.Tagging as Record<string, unknown> | undefined;
  if (!root || typeof root !== 'object' || !('TagSet' in root)) throw s3.malformedXml();
  const set = root.TagSet as { Tag?: unknown[] } | string | undefined;
  const tags = typeof set === 'object' && set ? (set.Tag ?? []) : [];
  return tags.map((t) => {
    const key = text(t, 'Key', true);
    const value = text(t, 'Value', true);
    if (key === undefined || value === undefined) throw s3.malformedXml();
    return { key, value };
  });
}

function tagSet(tags: Tag[]) {
  return s3Root('Tagging', [el('TagSet', tags.map((t) => el('Tag', [el('Key', t.key), el('Value', t.value)])))]);
}

const versionHeader = (versionId: string | null) => ({ 'x-amz-version-id': versionId ?? 'null' });

/** GetObjectTagging: the version's tags (an empty set when it has none), with its version id. */
export function getObjectTagging(call: BucketCall<OpOf<'GetObjectTagging'>>): void {
  const { versionId, tags } = call.ctx.engine.getObjectTags(call.ref, call.op.address.key!, call.op.versionId);
  sendXml(call.x, 200, tagSet(tags), versionId !== null ? versionHeader(versionId) : {});
}

export async function putObjectTagging(call: BucketCall<OpOf<'PutObjectTagging'>>): Promise<void> {
  const tags = await readTagging(call);
  const versionId = await call.ctx.engine.setObjectTags(call.ref, call.op.address.key!, call.op.versionId, tags);
  sendEmpty(call.x, 200, versionId !== null ? versionHeader(versionId) : {});
}

export async function deleteObjectTagging(call: BucketCall<OpOf<'DeleteObjectTagging'>>): Promise<void> {
  const versionId = await call.ctx.engine.setObjectTags(call.ref, call.op.address.key!, call.op.versionId, null);
  sendEmpty(call.x, 204, versionId !== null ? versionHeader(versionId) : {});
}

export function getBucketTagging(call: BucketCall<OpOf<'GetBucketTagging'>>): void {
  if (!call.bucket.tags) throw new S3Error(404, 'NoSuchTagSet', 'The TagSet does not exist');
  sendXml(call.x, 200, tagSet(call.bucket.tags));
}

/** PutBucketTagging replaces the whole set (AWS answers 204); DeleteBucketTagging removes it. */
export async function putBucketTagging(call: BucketCall<OpOf<'PutBucketTagging'>>): Promise<void> {
  const tags = await readTagging(call);
  await call.ctx.engine.updateContainer(call.ref, { tags });
  sendEmpty(call.x, 204);
}

export async function deleteBucketTagging(call: BucketCall<OpOf<'DeleteBucketTagging'>>): Promise<void> {
  await call.ctx.engine.updateContainer(call.ref, { tags: null });
  sendEmpty(call.x, 204);
}
