import { el } from '../../common/xml.js';
import { isoMillis } from '../../common/dates.js';
import { CofferError } from '../../../../src-shared/errors.js';
import { s3Root, sendEmpty, sendXml, type S3Call } from '../respond.js';

function requireAccount(call: S3Call): string {
  if (!call.who.account) throw new CofferError('AccessDenied');
  return call.who.account;
}

/** ListBuckets: the caller's own buckets in name order (§20). */
export function listBuckets(call: S3Call): void {
  const account = call.ctx.engine.getAccount(requireAccount(call));
  const buckets = call.ctx.engine.listContainers(account.id);
  sendXml(
    call.x,
    200,
    s3Root('ListAllMyBucketsResult', [
      el('Owner', [el('ID', account.id), el('DisplayName', account.displayName)]),
      el('Buckets', buckets.map((b) => el('Bucket', [el('Name', b.name), el('CreationDate', isoMillis(b.created))]))),
    ]),
  );
}

export function headService(call: S3Call): void {
  requireAccount(call);
  sendEmpty(call.x, 200);
}
