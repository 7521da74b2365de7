// The POST policy of a browser form upload (AWS "Creating a POST Policy"): who signed the form
// (SigV4's x-amz-* fields, or SigV2's AWSAccessKeyId and signature over the base64 policy), and
// whether the form's fields and the file's size meet the policy's expiration and conditions.
import { createHmac } from 'node:crypto';
import type { Engine } from '../../engine/index.js';
import { sameSignature, signingKey } from './canonical.js';
import { S3Error } from './errors.js';

/** The form's fields by lower-case name (AWS reads field names case-insensitively). */
export type FormFields = Record<string, string>;

type Condition =
  | { kind: 'eq' | 'starts-with'; field: string; value: string; text: string }
  | { kind: 'length'; min: number; max: number };

export interface PostPolicy {
  expiration: number;
  conditions: Condition[];
}

/** Fields the policy need not name: the signature's own, the file, and x-ignore-* (AWS's list). */
const EXEMPT = new Set(['policy', 'x-amz-signature', 'signature', 'awsaccesskeyid', 'file']);

const missingField = (name: string) =>
  new S3Error(400, 'InvalidArgument', `Bucket POST must contain a field named '${name}'.  If it is specified, please check the order of the fields.`, {
    ArgumentName: name,
    ArgumentValue: '',
  });
const invalidPolicy = (why: string) => new S3Error(400, 'InvalidPolicyDocument', `Invalid Policy: ${why}`);
export const policyRefusal = (why: string) => new S3Error(403, 'AccessDenied', `Invalid according to Policy: ${why}`);
const signatureMismatch = () =>
  new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');

function secretOf(engine: Engine, accessKey: string) {
  const found = engine.findByAccessKey(accessKey);
  if (!found) throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: accessKey });
  return found;
}

/**
 * The account that signed the form, or undefined for an unsigned one (no policy: an anonymous
 * upload, which only a bucket open to anonymous writes takes). SigV4 when x-amz-algorithm is
 * there, else SigV2.
 */
export function formSigner(engine: Engine, f: FormFields): string | undefined {
  const signed = ['x-amz-signature', 'x-amz-credential', 'signature', 'awsaccesskeyid'].some((n) => n in f);
  if (f.policy === undefined) {
    if (signed) throw missingField('policy');
    return undefined;
  }
  if ('x-amz-algorithm' in f || 'x-amz-credential' in f || 'x-amz-signature' in f) {
    if (f['x-amz-algorithm'] !== 'AWS4-HMAC-SHA256') {
      if (f['x-amz-algorithm'] === undefined) throw missingField('x-amz-algorithm');
      throw new S3Error(400, 'InvalidArgument', 'Only AWS4-HMAC-SHA256 is supported.', { ArgumentName: 'x-amz-algorithm', ArgumentValue: f['x-amz-algorithm'] });
    }
    for (const name of ['x-amz-credential', 'x-amz-date', 'x-amz-signature']) if (f[name] === undefined) throw missingField(name);
    const parts = f['x-amz-credential']!.split('/');
    if (parts.length !== 5 || parts[4] !== 'aws4_request' || parts[3] !== 's3' || !parts[0]) {
      throw new S3Error(400, 'InvalidArgument', 'Invalid argument.', { ArgumentName: 'x-amz-credential', ArgumentValue: f['x-amz-credential']! });
    }
    const [accessKey, date, region] = parts as [string, string, string];
    const found = secretOf(engine, accessKey);
    const expected = signingKey(found.secretKey, date, region, 's3').hex(f.policy);
    if (!sameSignature(expected, f['x-amz-signature']!.toLowerCase())) throw signatureMismatch();
    return found.account.id;
  }
  if (f.awsaccesskeyid === undefined) throw missingField('AWSAccessKeyId');
  if (f.signature === undefined) throw missingField('Signature');
  const found = secretOf(engine, f.awsaccesskeyid);
  const expected = createHmac('sha1', found.secretKey).update(f.policy, 'utf8').digest('base64');
  if (!sameSignature(expected, f.signature)) throw signatureMismatch();
  return found.account.id;
}

/** The JSON of a condition as AWS quotes it back in a refusal. */
const quoted = (items: unknown[]) => `[${items.map((i) => JSON.stringify(i)).join(', ')}]`;

/** The base64 policy decoded and read; a broken one is InvalidPolicyDocument, as AWS answers. */
export function readPolicy(base64: string): PostPolicy {
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch {
    throw invalidPolicy('Invalid JSON.');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw invalidPolicy('Invalid JSON.');
  const { expiration, conditions } = doc as { expiration?: unknown; conditions?: unknown };
  if (typeof expiration !== 'string') throw invalidPolicy('Policy missing expiration.');
  const when = Date.parse(expiration);
  if (Number.isNaN(when)) throw invalidPolicy(`Invalid 'expiration' value: '${expiration}'`);
  if (!Array.isArray(conditions)) throw invalidPolicy('Policy missing conditions.');
  return { expiration: when, conditions: conditions.map(readCondition) };
}

function readCondition(c: unknown): Condition {
  if (Array.isArray(c)) {
    const op = String(c[0]).toLowerCase();
    if (op === 'content-length-range') {
      const [min, max] = [Number(c[1]), Number(c[2])];
      if (c.length !== 3 || !Number.isInteger(min) || !Number.isInteger(max)) throw invalidPolicy(`Invalid content-length-range condition: ${quoted(c)}`);
      return { kind: 'length', min, max };
    }
    if ((op !== 'eq' && op !== 'starts-with') || c.length !== 3 || typeof c[1] !== 'string' || typeof c[2] !== 'string') {
      throw invalidPolicy(`Invalid Policy Condition: ${quoted(c)}`);
    }
    return { kind: op, field: c[1].replace(/^\$/, '').toLowerCase(), value: c[2], text: quoted(c) };
  }
  if (c && typeof c === 'object') {
    const entries = Object.entries(c);
    if (entries.length === 1 && typeof entries[0]![1] === 'string') {
      const [field, value] = entries[0] as [string, string];
      return { kind: 'eq', field: field.toLowerCase(), value, text: quoted(['eq', `$${field}`, value]) };
    }
  }
  throw invalidPolicy(`Invalid Policy Condition: ${JSON.stringify(c)}`);
}

/**
 * The policy against the form's fields (the file not read yet): not expired, every condition met
 * (`bucket` is the bucket posted to), every field named by a condition. Returns the size range.
 */
export function checkPolicy(policy: PostPolicy, f: FormFields, bucket: string): { min: number; max: number } | undefined {
  if (policy.expiration <= Date.now()) throw policyRefusal('Policy expired.');
  const named = new Set<string>();
  let range: { min: number; max: number } | undefined;
  for (const c of policy.conditions) {
    if (c.kind === 'length') {
      range = { min: c.min, max: c.max };
      continue;
    }
    named.add(c.field);
    const actual = c.field === 'bucket' ? bucket : f[c.field];
    const ok = actual !== undefined && (c.kind === 'eq' ? actual === c.value : actual.startsWith(c.value));
    if (!ok) throw policyRefusal(`Policy Condition failed: ${c.text}`);
  }
  const extra = Object.keys(f).filter((n) => !EXEMPT.has(n) && !n.startsWith('x-ignore-') && !named.has(n));
  if (extra.length) throw policyRefusal(`Extra input fields: ${extra.join(', ')}`);
  return range;
}
