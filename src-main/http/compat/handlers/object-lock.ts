import { decide, type ContainerInfo, type DefaultRetention, type ObjectRetention } from '../../../engine/index.js';
import type { HeaderValues } from '../../common/exchange.js';
import { el, type XmlNode } from '../../common/xml.js';
import { S3Error, s3 } from '../errors.js';
import { isoDateTime, isRetentionMode, requireDocumentIntegrity, requireFuture, requireLockBucket } from '../lock-input.js';
import { BYPASS_GOVERNANCE_ACTION, type OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';

type Node = Record<string, unknown>;
const child = (n: unknown, name: string): Node | undefined => {
  const v = (n as Node | undefined)?.[name];
  if (v === undefined) return undefined;
  return typeof v === 'object' && v !== null ? (v as Node) : {};
};

/**
 * Whether a request's `x-amz-bypass-governance-retention` takes effect: asked, and the caller
 * may (the owner; others where the bucket's policy allows s3:BypassGovernanceRetention).
 */
export function mayBypass(call: BucketCall, asked: boolean, key: string): boolean {
  if (!asked) return false;
  return decide({ who: call.who, container: call.bucket, action: 'admin', facts: { action: BYPASS_GOVERNANCE_ACTION, key } });
}

const isoMs = (ms: number) => new Date(ms).toISOString();

type Locked = { name: string; retention?: ObjectRetention; legalHold?: boolean };

/**
 * The lock headers GET and HEAD show of a version, where it has them and the caller may read
 * them: as on AWS, a reader sees the retention only with s3:GetObjectRetention and the legal
 * hold only with s3:GetObjectLegalHold (the owner; others by the bucket's policy).
 */
export function addLockHeaders(call: BucketCall, info: Locked, headers: HeaderValues): HeaderValues {
  if (!info.retention && info.legalHold === undefined) return headers;
  const may = (action: string) => decide({ who: call.who, container: call.bucket, action: 'admin', facts: { action, key: info.name } });
  if (info.retention && may('s3:GetObjectRetention')) {
    headers['x-amz-object-lock-mode'] = info.retention.mode;
    headers['x-amz-object-lock-retain-until-date'] = isoMs(info.retention.until);
  }
  if (info.legalHold !== undefined && may('s3:GetObjectLegalHold')) headers['x-amz-object-lock-legal-hold'] = info.legalHold ? 'ON' : 'OFF';
  return headers;
}

/** A positive count of Days or Years: digits, else the document is malformed (the schema's int). */
function periodField(n: unknown, name: string): number | undefined {
  const s = text(n, name);
  if (s === undefined) return undefined;
  if (!/^[+-]?\d{1,10}$/.test(s)) throw s3.malformedXml();
  return Number(s);
}

/** `<ObjectLockConfiguration>`: Enabled, with at most one rule of a mode and Days or Years. */
function readLockConfiguration(doc: Node | undefined): DefaultRetention | undefined {
  const root = child(doc, 'ObjectLockConfiguration');
  if (!root || text(root, 'ObjectLockEnabled') !== 'Enabled') throw s3.malformedXml();
  const rules = root.Rule as unknown[] | undefined;
  if (rules === undefined) return undefined;
  if (rules.length !== 1) throw s3.malformedXml();
  const retention = child(rules[0], 'DefaultRetention');
  const mode = text(retention, 'Mode');
  if (!retention || !isRetentionMode(mode)) throw s3.malformedXml();
  const days = periodField(retention, 'Days');
  const years = periodField(retention, 'Years');
  if ((days === undefined) === (years === undefined)) throw s3.malformedXml();
  // Zero or less is the engine's InvalidArgument (AWS: "must be a positive integer value").
  return days !== undefined ? { mode, days } : { mode, years: years! };
}

export async function putObjectLockConfiguration(call: BucketCall<OpOf<'PutObjectLockConfiguration'>>): Promise<void> {
  requireDocumentIntegrity(call.op.document);
  const defaultRetention = readLockConfiguration(await readXml(call.x.req, call.op.document));
  await call.ctx.engine.updateContainer(call.ref, { objectLock: defaultRetention ? { defaultRetention } : {} });
  sendEmpty(call.x, 200);
}

function lockConfigurationXml(bucket: ContainerInfo): XmlNode {
  const body: XmlNode[] = [el('ObjectLockEnabled', 'Enabled')];
  const d = bucket.objectLock?.defaultRetention;
  if (d) {
    const period = d.days !== undefined ? el('Days', d.days) : el('Years', d.years ?? 0);
    body.push(el('Rule', [el('DefaultRetention', [el('Mode', d.mode), period])]));
  }
  return s3Root('ObjectLockConfiguration', body);
}

export function getObjectLockConfiguration(call: BucketCall<OpOf<'GetObjectLockConfiguration'>>): void {
  if (!call.bucket.objectLock) throw new S3Error(404, 'ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket');
  sendXml(call.x, 200, lockConfigurationXml(call.bucket));
}

const noLockOnObject = () => new S3Error(404, 'NoSuchObjectLockConfiguration', 'The specified object does not have a ObjectLock configuration');

export function getObjectRetention(call: BucketCall<OpOf<'GetObjectRetention'>>): void {
  requireLockBucket(call.bucket);
  const { retention } = call.ctx.engine.getObjectLock(call.ref, call.op.address.key!, call.op.versionId);
  if (!retention) throw noLockOnObject();
  sendXml(call.x, 200, s3Root('Retention', [el('Mode', retention.mode), el('RetainUntilDate', isoMs(retention.until))]));
}

/** `<Retention>` with a Mode and a RetainUntilDate, or neither (which removes the retention, as AWS). */
function readRetention(doc: Node | undefined): ObjectRetention | null {
  const root = child(doc, 'Retention');
  if (!root) throw s3.malformedXml();
  const mode = text(root, 'Mode');
  const date = text(root, 'RetainUntilDate');
  if (mode === undefined && date === undefined) return null;
  if (!isRetentionMode(mode) || date === undefined) throw s3.malformedXml();
  const until = isoDateTime(date);
  if (Number.isNaN(until)) throw s3.malformedXml();
  requireFuture(until);
  return { mode, until };
}

export async function putObjectRetention(call: BucketCall<OpOf<'PutObjectRetention'>>): Promise<void> {
  const { op } = call;
  requireDocumentIntegrity(op.document);
  requireLockBucket(call.bucket);
  const retention = readRetention(await readXml(call.x.req, op.document));
  const key = op.address.key!;
  await call.ctx.engine.setObjectRetention(call.ref, key, op.versionId, retention, mayBypass(call, op.bypassGovernance, key));
  sendEmpty(call.x, 200);
}

export function getObjectLegalHold(call: BucketCall<OpOf<'GetObjectLegalHold'>>): void {
  requireLockBucket(call.bucket);
  const { legalHold } = call.ctx.engine.getObjectLock(call.ref, call.op.address.key!, call.op.versionId);
  if (legalHold === undefined) throw noLockOnObject();
  sendXml(call.x, 200, s3Root('LegalHold', [el('Status', legalHold ? 'ON' : 'OFF')]));
}

export async function putObjectLegalHold(call: BucketCall<OpOf<'PutObjectLegalHold'>>): Promise<void> {
  const { op } = call;
  requireDocumentIntegrity(op.document);
  requireLockBucket(call.bucket);
  const status = text(child(await readXml(call.x.req, op.document), 'LegalHold'), 'Status');
  if (status !== 'ON' && status !== 'OFF') throw s3.malformedXml();
  await call.ctx.engine.setObjectLegalHold(call.ref, op.address.key!, op.versionId, status === 'ON');
  sendEmpty(call.x, 200);
}
