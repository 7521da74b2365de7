import { randomBytes } from 'node:crypto';
import { currentExpiry, lifecycleProblem, type ContainerInfo, type LifecycleRule, type ObjectInfo } from '../../../engine/index.js';
import type { HeaderValues } from '../../common/exchange.js';
import { el, type XmlNode } from '../../common/xml.js';
import { S3Error, s3 } from '../errors.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';

/** The conditions a Filter (or its And) may hold besides Prefix. */
const CONDITIONS = ['Tag', 'ObjectSizeGreaterThan', 'ObjectSizeLessThan'];

const notImplemented = (what: string) => new S3Error(501, 'NotImplemented', `${what} is not implemented by this server.`);

type Node = Record<string, unknown>;
const child = (n: unknown, name: string): Node | undefined => {
  const v = (n as Node | undefined)?.[name];
  if (v === undefined) return undefined;
  return typeof v === 'object' && v !== null ? (v as Node) : {};
};
const has = (n: unknown, name: string) => (n as Node | undefined)?.[name] !== undefined;

/** An xsd:int field: absent, or digits (a sign allowed, as the schema does); anything else is MalformedXML. */
function intField(n: unknown, name: string): number | undefined {
  const s = text(n, name);
  if (s === undefined) return undefined;
  if (!/^[+-]?\d{1,10}$/.test(s)) throw s3.malformedXml();
  return Number(s);
}

function booleanField(n: unknown, name: string): boolean | undefined {
  const s = text(n, name);
  if (s === undefined) return undefined;
  if (s !== 'true' && s !== 'false') throw s3.malformedXml();
  return s === 'true';
}

type FilterPart = Pick<LifecycleRule, 'prefix' | 'filterForm' | 'tags' | 'objectSizeGreaterThan' | 'objectSizeLessThan'>;

/** A size bound: a whole number of bytes, not negative (xsd:long); anything else is MalformedXML. */
function sizeField(n: unknown, name: string): number | undefined {
  const s = text(n, name);
  if (s === undefined) return undefined;
  if (!/^\d{1,15}$/.test(s)) throw s3.malformedXml();
  return Number(s);
}

/** The Tag, size bounds of a Filter or its And (one Tag directly under Filter, any number under And). */
function conditionsOf(n: unknown, many: boolean): Omit<FilterPart, 'prefix' | 'filterForm'> {
  const out: Omit<FilterPart, 'prefix' | 'filterForm'> = {};
  const tags = (n as Node)?.Tag as unknown[] | undefined;
  if (tags) {
    if (!many && tags.length > 1) throw s3.malformedXml();
    out.tags = tags.map((t) => {
      const key = text(t, 'Key', true);
      const value = text(t, 'Value', true);
      if (key === undefined || value === undefined) throw s3.malformedXml();
      return { key, value };
    });
  }
  const greater = sizeField(n, 'ObjectSizeGreaterThan');
  if (greater !== undefined) out.objectSizeGreaterThan = greater;
  const less = sizeField(n, 'ObjectSizeLessThan');
  if (less !== undefined) out.objectSizeLessThan = less;
  return out;
}

/** The Filter (or legacy Prefix) of a rule: its prefix, tags and size bounds, and how it was written. */
function filterOf(rule: Node): FilterPart {
  const filter = child(rule, 'Filter');
  if (has(rule, 'Prefix') === (filter !== undefined)) throw s3.malformedXml();
  if (!filter) return { prefix: text(rule, 'Prefix', true) ?? '', filterForm: 'prefix' };
  const and = child(filter, 'And');
  const direct = ['Prefix', 'And', ...CONDITIONS].filter((k) => has(filter, k));
  if (direct.length > 1) throw s3.malformedXml();
  if (and) return { prefix: text(and, 'Prefix', true) ?? '', filterForm: 'filter-and', ...conditionsOf(and, true) };
  if (has(filter, 'Prefix')) return { prefix: text(filter, 'Prefix', true) ?? '', filterForm: 'filter-prefix' };
  return { prefix: '', filterForm: 'filter', ...conditionsOf(filter, false) };
}

/** A midnight-UTC ISO 8601 date, as AWS writes it; anything that is no date is MalformedXML. */
function dateField(n: unknown): number | undefined {
  const s = text(n, 'Date');
  if (s === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) ? Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s) : NaN;
  if (Number.isNaN(ms)) throw s3.malformedXml();
  return ms;
}

function ruleOf(rule: Node): LifecycleRule {
  if (has(rule, 'Transition') || has(rule, 'NoncurrentVersionTransition')) throw notImplemented('A lifecycle transition (this server has one storage class)');
  const status = text(rule, 'Status');
  if (status !== 'Enabled' && status !== 'Disabled') throw s3.malformedXml();
  // AWS and RGW name a rule given without an ID.
  const out: LifecycleRule = { id: text(rule, 'ID', true) || randomBytes(24).toString('base64url'), enabled: status === 'Enabled', ...filterOf(rule) };
  const exp = child(rule, 'Expiration');
  if (exp) {
    const days = intField(exp, 'Days');
    const date = dateField(exp);
    const marker = booleanField(exp, 'ExpiredObjectDeleteMarker');
    // One of the three, exactly (the schema's choice).
    if ([days, date, marker].filter((v) => v !== undefined).length !== 1) throw s3.malformedXml();
    if (days !== undefined) out.expirationDays = days;
    if (date !== undefined) out.expirationDate = date;
    if (marker) out.expiredObjectDeleteMarker = true;
  }
  const nve = child(rule, 'NoncurrentVersionExpiration');
  if (nve) {
    const days = intField(nve, 'NoncurrentDays');
    if (days === undefined) throw s3.malformedXml();
    out.noncurrentDays = days;
    const newer = intField(nve, 'NewerNoncurrentVersions');
    if (newer !== undefined) out.newerNoncurrentVersions = newer;
  }
  const abort = child(rule, 'AbortIncompleteMultipartUpload');
  if (abort) {
    const days = intField(abort, 'DaysAfterInitiation');
    if (days === undefined) throw s3.malformedXml();
    out.abortIncompleteDays = days;
  }
  return out;
}

export async function putBucketLifecycle(call: BucketCall<OpOf<'PutBucketLifecycle'>>): Promise<void> {
  const doc = await readXml(call.x.req, call.op.document);
  const root = child(doc, 'LifecycleConfiguration');
  if (!root) throw s3.malformedXml();
  const rules = ((root.Rule as Node[] | undefined) ?? []).map(ruleOf);
  const problem = lifecycleProblem(rules);
  if (problem) throw new S3Error(400, problem.code, problem.message);
  await call.ctx.engine.updateContainer(call.ref, { lifecycle: rules });
  sendEmpty(call.x, 200);
}

const isoDate = (ms: number) => new Date(ms).toISOString();

function filterXml(r: LifecycleRule): XmlNode[] {
  switch (r.filterForm) {
    case 'prefix':
      return [el('Prefix', r.prefix)];
    case 'filter':
      return [el('Filter', conditionsXml(r))];
    case 'filter-prefix':
      return [el('Filter', [el('Prefix', r.prefix)])];
    case 'filter-and':
      return [el('Filter', [el('And', [el('Prefix', r.prefix), ...conditionsXml(r)])])];
  }
}

function conditionsXml(r: LifecycleRule): XmlNode[] {
  const out = (r.tags ?? []).map((t) => el('Tag', [el('Key', t.key), el('Value', t.value)]));
  if (r.objectSizeGreaterThan !== undefined) out.push(el('ObjectSizeGreaterThan', r.objectSizeGreaterThan));
  if (r.objectSizeLessThan !== undefined) out.push(el('ObjectSizeLessThan', r.objectSizeLessThan));
  return out;
}

function ruleXml(r: LifecycleRule): XmlNode {
  const body: XmlNode[] = [el('ID', r.id), ...filterXml(r), el('Status', r.enabled ? 'Enabled' : 'Disabled')];
  if (r.expirationDays !== undefined) body.push(el('Expiration', [el('Days', r.expirationDays)]));
  if (r.expirationDate !== undefined) body.push(el('Expiration', [el('Date', isoDate(r.expirationDate))]));
  if (r.expiredObjectDeleteMarker) body.push(el('Expiration', [el('ExpiredObjectDeleteMarker', 'true')]));
  if (r.noncurrentDays !== undefined) {
    const newer = r.newerNoncurrentVersions !== undefined ? [el('NewerNoncurrentVersions', r.newerNoncurrentVersions)] : [];
    body.push(el('NoncurrentVersionExpiration', [el('NoncurrentDays', r.noncurrentDays), ...newer]));
  }
  if (r.abortIncompleteDays !== undefined) body.push(el('AbortIncompleteMultipartUpload', [el('DaysAfterInitiation', r.abortIncompleteDays)]));
  return el('Rule', body);
}

export function getBucketLifecycle(call: BucketCall): void {
  const rules = call.bucket.lifecycle;
  if (!rules) throw new S3Error(404, 'NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist');
  sendXml(call.x, 200, s3Root('LifecycleConfiguration', rules.map(ruleXml)));
}

export async function deleteBucketLifecycle(call: BucketCall): Promise<void> {
  await call.ctx.engine.updateContainer(call.ref, { lifecycle: null });
  sendEmpty(call.x, 204);
}

/**
 * `x-amz-expiration` for a current version a rule will expire (AWS on PUT, GET, HEAD and copies):
 * when, and which rule (its id URL-encoded, as AWS documents). Nothing for delete markers or older versions.
 */
export function addExpirationHeader(bucket: ContainerInfo, info: Pick<ObjectInfo, 'name' | 'lastModified' | 'isLatest' | 'deleteMarker' | 'size' | 'tags'>, dayMs: number, headers: HeaderValues): HeaderValues {
  if (!bucket.lifecycle || !info.isLatest || info.deleteMarker) return headers;
  const due = currentExpiry(bucket.lifecycle, info.name, info.lastModified, dayMs, info);
  if (due) headers['x-amz-expiration'] = `expiry-date="${new Date(due.at).toUTCString()}", rule-id="${encodeURIComponent(due.ruleId)}"`;
  return headers;
}
