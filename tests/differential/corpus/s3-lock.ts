// S3 API: Object Lock (issue 26): buckets made with it, their configuration and its refusals, lock
// headers on writes, a version's retention and legal hold, and the deletes and changes they refuse.
// Retention dates are far ahead (a run's locked versions stay where they are, in fresh buckets).
import type { Req, Row } from '../types.js';
import { DELETE, GET, HEAD, OBJ_BODY, POST, PUT, s, S3NS, xmlDoc } from './helpers.js';

const FAR = '2099-01-01T00:00:00Z';
const FARTHER = '2099-06-01T00:00:00Z';
const PAST = '2001-01-01T00:00:00Z';

const LOCK_B: Req[] = [PUT('/{b}', { headers: { 'x-amz-bucket-object-lock-enabled': 'true' } })];
const lockConfig = (inner: string) => xmlDoc(`<ObjectLockConfiguration xmlns="${S3NS}">${inner}</ObjectLockConfiguration>`);
const rule = (retention: string) => `<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention>${retention}</DefaultRetention></Rule>`;
const putConfig = (inner: string, more: Partial<Req> = {}): Req => PUT('/{b}?object-lock', { body: lockConfig(inner), md5: true, ...more });
const refused = (id: string, inner: string): Row => s(`lock.config.refused.${id}`, putConfig(inner), { setup: LOCK_B });

const lockHeaders = (mode: string, until: string) => ({ 'x-amz-object-lock-mode': mode, 'x-amz-object-lock-retain-until-date': until });
const putObj = (headers: Record<string, string>, key = 'obj'): Req => PUT(`/{b}/${key}`, { body: OBJ_BODY, md5: true, headers });
/** A locked bucket with `obj` written under these lock headers; its version id captured as {v1}. */
const lockedObj = (headers: Record<string, string>): Req[] => [...LOCK_B, { ...putObj(headers), capture: { v1: 'header:x-amz-version-id' } }];
const GOV = lockedObj(lockHeaders('GOVERNANCE', FAR));
const COMP = lockedObj(lockHeaders('COMPLIANCE', FAR));
const HELD = lockedObj({ 'x-amz-object-lock-legal-hold': 'ON' });

const retention = (mode: string, until: string) => xmlDoc(`<Retention xmlns="${S3NS}"><Mode>${mode}</Mode><RetainUntilDate>${until}</RetainUntilDate></Retention>`);
const putRetention = (body: string, more: Partial<Req> = {}): Req => PUT('/{b}/obj?retention&versionId={v1}', { body, md5: true, ...more });
const BYPASS = { 'x-amz-bypass-governance-retention': 'true' };
const legalHold = (status: string) => xmlDoc(`<LegalHold xmlns="${S3NS}"><Status>${status}</Status></LegalHold>`);
const deleteVersion = (more: Partial<Req> = {}): Req => DELETE('/{b}/obj?versionId={v1}', more);
/** An upload of `mp` under a legal hold, its id captured as {upload}. */
const lockedUpload: Req = { ...POST('/{b}/mp?uploads', { headers: { 'x-amz-object-lock-legal-hold': 'ON' } }), capture: { upload: 'xml:UploadId' } };
const deleteMany = xmlDoc(`<Delete xmlns="${S3NS}"><Object><Key>obj</Key><VersionId>{v1}</VersionId></Object></Delete>`);

export const S3_LOCK_ROWS: Row[] = [
  // Buckets made with object lock, and their configuration
  s('bucket.create-object-lock', PUT('/{b}', { headers: { 'x-amz-bucket-object-lock-enabled': 'true' } })),
  s('lock.bucket.versioning', GET('/{b}?versioning'), { setup: LOCK_B }),
  s('lock.bucket.suspend', PUT('/{b}?versioning', { body: xmlDoc(`<VersioningConfiguration xmlns="${S3NS}"><Status>Suspended</Status></VersioningConfiguration>`), md5: true }), { setup: LOCK_B }),
  s('lock.config.get.enabled', GET('/{b}?object-lock'), { setup: LOCK_B }),
  s('lock.config.put.days', putConfig(rule('<Mode>GOVERNANCE</Mode><Days>3</Days>')), { setup: LOCK_B }),
  s('lock.config.get.days', GET('/{b}?object-lock'), { setup: [...LOCK_B, putConfig(rule('<Mode>GOVERNANCE</Mode><Days>3</Days>'))] }),
  s('lock.config.get.years', GET('/{b}?object-lock'), { setup: [...LOCK_B, putConfig(rule('<Mode>COMPLIANCE</Mode><Years>2</Years>'))] }),
  s('lock.config.get.rule-removed', GET('/{b}?object-lock'), { setup: [...LOCK_B, putConfig(rule('<Mode>COMPLIANCE</Mode><Years>2</Years>')), putConfig('<ObjectLockEnabled>Enabled</ObjectLockEnabled>')] }),
  s('lock.config.get.other', GET('/{b}?object-lock', { as: 'other' }), { setup: LOCK_B }),
  s('lock.config.put.unversioned', putConfig('<ObjectLockEnabled>Enabled</ObjectLockEnabled>'), { setup: [PUT('/{b}')] }),
  s('lock.config.put.versioned', putConfig('<ObjectLockEnabled>Enabled</ObjectLockEnabled>'), {
    setup: [PUT('/{b}'), PUT('/{b}?versioning', { body: xmlDoc(`<VersioningConfiguration xmlns="${S3NS}"><Status>Enabled</Status></VersioningConfiguration>`), md5: true })],
  }),
  s('lock.config.put.no-md5', putConfig('<ObjectLockEnabled>Enabled</ObjectLockEnabled>', { md5: false }), { setup: LOCK_B }),
  refused('days-and-years', rule('<Mode>GOVERNANCE</Mode><Days>1</Days><Years>1</Years>')),
  refused('no-period', rule('<Mode>GOVERNANCE</Mode>')),
  refused('bad-mode', rule('<Mode>STRICT</Mode><Days>1</Days>')),
  refused('disabled', '<ObjectLockEnabled>Disabled</ObjectLockEnabled>'),
  refused('days-zero', rule('<Mode>GOVERNANCE</Mode><Days>0</Days>')),

  // Lock headers on writes
  s('lock.put.retention', putObj(lockHeaders('GOVERNANCE', FAR)), { setup: LOCK_B }),
  s('lock.put.head', HEAD('/{b}/obj'), { setup: GOV }),
  s('lock.put.head-held', HEAD('/{b}/obj'), { setup: HELD }),
  s('lock.put.get', GET('/{b}/obj'), { setup: COMP }),
  s('lock.put.mode-only', putObj({ 'x-amz-object-lock-mode': 'GOVERNANCE' }), { setup: LOCK_B }),
  s('lock.put.date-only', putObj({ 'x-amz-object-lock-retain-until-date': FAR }), { setup: LOCK_B }),
  s('lock.put.past', putObj(lockHeaders('GOVERNANCE', PAST)), { setup: LOCK_B }),
  s('lock.put.bad-mode', putObj(lockHeaders('STRICT', FAR)), { setup: LOCK_B }),
  s('lock.put.bad-hold', putObj({ 'x-amz-object-lock-legal-hold': 'MAYBE' }), { setup: LOCK_B }),
  s('lock.put.plain-bucket', putObj(lockHeaders('GOVERNANCE', FAR)), { setup: [PUT('/{b}')] }),
  s('lock.put.no-md5', PUT('/{b}/obj', { body: OBJ_BODY, headers: { 'x-amz-object-lock-legal-hold': 'ON' } }), { setup: LOCK_B }),
  s('lock.put.default-retention', HEAD('/{b}/obj'), { setup: [...LOCK_B, putConfig(rule('<Mode>GOVERNANCE</Mode><Days>3</Days>')), putObj({})] }),
  s('lock.copy.headers', HEAD('/{b}/dst'), { setup: [...HELD, PUT('/{b}/dst', { headers: { 'x-amz-copy-source': '/{b}/obj', ...lockHeaders('GOVERNANCE', FAR) } })] }),

  // A version's retention and legal hold
  s('lock.retention.get', GET('/{b}/obj?retention'), { setup: GOV }),
  s('lock.retention.get-none', GET('/{b}/obj?retention'), { setup: HELD }),
  s('lock.retention.get-plain', GET('/{b}/obj?retention'), { setup: [PUT('/{b}'), PUT('/{b}/obj', { body: OBJ_BODY })] }),
  s('lock.retention.put-plain', PUT('/{b}/obj?retention', { body: retention('GOVERNANCE', FAR), md5: true }), { setup: [PUT('/{b}'), PUT('/{b}/obj', { body: OBJ_BODY })] }),
  s('lock.retention.extend', putRetention(retention('GOVERNANCE', FARTHER)), { setup: GOV }),
  s('lock.retention.shorten', putRetention(retention('GOVERNANCE', '2098-01-01T00:00:00Z')), { setup: GOV }),
  s('lock.retention.shorten-bypass', putRetention(retention('GOVERNANCE', '2098-01-01T00:00:00Z'), { headers: BYPASS }), { setup: GOV }),
  s('lock.retention.to-compliance', putRetention(retention('COMPLIANCE', FAR)), { setup: GOV }),
  s('lock.retention.compliance-shorten-bypass', putRetention(retention('COMPLIANCE', '2098-01-01T00:00:00Z'), { headers: BYPASS }), { setup: COMP }),
  s('lock.retention.compliance-extend', putRetention(retention('COMPLIANCE', FARTHER)), { setup: COMP }),
  s('lock.retention.past', putRetention(retention('GOVERNANCE', PAST)), { setup: HELD }),
  s('lock.retention.bad-mode', putRetention(retention('STRICT', FAR)), { setup: HELD }),
  s('lock.retention.no-md5', putRetention(retention('GOVERNANCE', FAR), { md5: false }), { setup: HELD }),
  s('lock.retention.get-after-extend', GET('/{b}/obj?retention'), { setup: [...GOV, putRetention(retention('GOVERNANCE', FARTHER))] }),
  s('lock.hold.get', GET('/{b}/obj?legal-hold'), { setup: HELD }),
  s('lock.hold.get-none', GET('/{b}/obj?legal-hold'), { setup: GOV }),
  s('lock.hold.put', PUT('/{b}/obj?legal-hold&versionId={v1}', { body: legalHold('ON'), md5: true }), { setup: GOV }),
  s('lock.hold.get-off', GET('/{b}/obj?legal-hold'), { setup: [...HELD, PUT('/{b}/obj?legal-hold', { body: legalHold('OFF'), md5: true })] }),
  s('lock.hold.bad-status', PUT('/{b}/obj?legal-hold', { body: legalHold('MAYBE'), md5: true }), { setup: HELD }),
  s('lock.hold.put-plain', PUT('/{b}/obj?legal-hold', { body: legalHold('ON'), md5: true }), { setup: [PUT('/{b}'), PUT('/{b}/obj', { body: OBJ_BODY })] }),

  // Deletes
  s('lock.delete.governance', deleteVersion(), { setup: GOV }),
  s('lock.delete.governance-bypass', deleteVersion({ headers: BYPASS }), { setup: GOV }),
  s('lock.delete.compliance-bypass', deleteVersion({ headers: BYPASS }), { setup: COMP }),
  s('lock.delete.held-bypass', deleteVersion({ headers: BYPASS }), { setup: HELD }),
  s('lock.delete.marker', DELETE('/{b}/obj'), { setup: COMP }),
  s('lock.delete.many', POST('/{b}?delete', { body: deleteMany, md5: true }), { setup: GOV }),
  s('lock.delete.many-bypass', POST('/{b}?delete', { body: deleteMany, md5: true, headers: BYPASS }), { setup: GOV }),
  // The bypass asked of a bucket without object lock (AWS: InvalidArgument)
  s('lock.delete.plain-bucket-bypass', DELETE('/{b}/obj', { headers: BYPASS }), { setup: [PUT('/{b}'), PUT('/{b}/obj', { body: OBJ_BODY })] }),
  s('lock.delete.many-plain-bucket-bypass', POST('/{b}?delete', { body: xmlDoc(`<Delete xmlns="${S3NS}"><Object><Key>obj</Key></Object></Delete>`), md5: true, headers: BYPASS }), {
    setup: [PUT('/{b}'), PUT('/{b}/obj', { body: OBJ_BODY })],
  }),

  // A part of an upload that will be locked, without Content-MD5 or a checksum (AWS: InvalidRequest), and with one
  s('lock.part.no-md5', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'part' }), { setup: [...LOCK_B, lockedUpload] }),
  s('lock.part.md5', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'part', md5: true }), { setup: [...LOCK_B, lockedUpload] }),
  s('lock.part.unlocked-upload', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'part' }), { setup: [...LOCK_B, { ...POST('/{b}/mp?uploads'), capture: { upload: 'xml:UploadId' } }] }),
];
