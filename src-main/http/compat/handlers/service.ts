import { el } from '../../common/xml.js';
import { isoMillis } from '../../common/dates.js';
import { CofferError } from '../../../../src-shared/errors.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type S3Call } from '../respond.js';

function requireAccount(call: S3Call): string {
  if (!call.who.account) throw new CofferError('AccessDenied');
  return call.who.account;
}

/**
 * ListBuckets: the caller's own buckets in name order (§20), paged as AWS pages them when asked
 * (max-buckets, continuation-token, prefix): a truncated page says where the next starts in
 * <ContinuationToken>, and <Prefix> echoes the prefix.
 */
export function listBuckets(call: S3Call<OpOf<'ListBuckets'>>): void {
  const { maxBuckets, after, prefix } = call.op;
  const account = call.ctx.engine.getAccount(requireAccount(call));
  const all = call.ctx.engine.listContainers(account.id).filter((b) => (!prefix || b.name.startsWith(prefix)) && (after === undefined || b.name > after));
  const buckets = maxBuckets === undefined ? all : all.slice(0, maxBuckets);
  const next = buckets.length < all.length ? Buffer.from(buckets.at(-1)!.name, 'utf8').toString('base64url') : undefined;
  sendXml(
    call.x,
    200,
    s3Root('ListAllMyBucketsResult', [
      el('Owner', [el('ID', account.id), el('DisplayName', account.displayName)]),
      el('Buckets', buckets.map((b) => el('Bucket', [el('Name', b.name), el('CreationDate', isoMillis(b.created))]))),
      ...(next !== undefined ? [el('ContinuationToken', next)] : []),
      ...(prefix !== undefined ? [el('Prefix', prefix)] : []),
    ]),
  );
}

export function headService(call: S3Call): void {
  requireAccount(call);
  sendEmpty(call.x, 200);
}
