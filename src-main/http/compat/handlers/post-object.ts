import { CofferError } from '../../../../src-shared/errors.js';
import { decide, type ObjectInfo } from '../../../engine/index.js';
import { abortedBy } from '../../common/exchange.js';
import { InvalidBoundary, MultipartReader, parseContentDisposition, type FormPart } from '../../common/multipart.js';
import { el } from '../../common/xml.js';
import { aclFromHeaders } from '../acl-input.js';
import { S3Error } from '../errors.js';
import { checkStorageClass, readStandard, readUserMeta } from '../metadata.js';
import type { OpOf } from '../operation.js';
import { policyFacts } from '../policy-facts.js';
import { checkPolicy, formSigner, readPolicy, type FormFields } from '../post-policy.js';
import { sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { bucketRef } from '../bucket-ref.js';
import { encryptionRefusal } from '../encryption.js';
import { parseXmlText } from '../xml-input.js';
import { uploadGrants } from './acl.js';
import { tagsOfDocument } from './tagging.js';

/** AWS's cap on the fields before the file (MaxPostPreDataLengthExceeded). */
const MAX_FIELD_BYTES = 20 * 1024;

const malformed = () => new S3Error(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.');

/** The fields up to the file (AWS ignores what follows it), and the file's part and name. */
async function readForm(reader: MultipartReader): Promise<{ fields: FormFields; file: FormPart | undefined; filename: string }> {
  const fields: FormFields = {};
  let total = 0;
  for (let part = await reader.next(); part; part = await reader.next()) {
    const [, attrs] = parseContentDisposition(part.headers['content-disposition'] ?? '');
    if (attrs.name === undefined) throw malformed();
    const name = attrs.name.toLowerCase();
    if (name === 'file') return { fields, file: part, filename: attrs.filename ?? '' };
    const chunks: Buffer[] = [];
    for await (const chunk of part.body) {
      total += chunk.length;
      if (total > MAX_FIELD_BYTES) throw new S3Error(400, 'MaxPostPreDataLengthExceeded', 'Your POST request fields preceeding the upload file was too large.');
      chunks.push(chunk);
    }
    fields[name] = Buffer.concat(chunks).toString('utf8');
  }
  return { fields, file: undefined, filename: '' };
}

/** The file's bytes as they stream, refused past the policy's content-length-range (nothing is kept). */
async function* sized(body: AsyncIterable<Buffer>, range: { min: number; max: number } | undefined): AsyncGenerator<Buffer> {
  let n = 0;
  for await (const chunk of body) {
    n += chunk.length;
    if (range && n > range.max) throw new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', { ProposedSize: String(n), MaxSizeAllowed: String(range.max) });
    yield chunk;
  }
  if (range && n < range.min) throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', { ProposedSize: String(n), MinSizeAllowed: String(range.min) });
}

/**
 * The object's address as AWS gives it in Location (header and PostResponse): the request's host,
 * the whole key escaped, `/` too (AWS's own quirk, which clients decode).
 */
function locationOf(call: BucketCall, key: string): string {
  const host = call.x.header('host') ?? '127.0.0.1';
  const bucket = call.op.address.style === 'virtual-host' ? '' : `/${encodeURIComponent(call.bucket.name)}`;
  return `http://${host}${bucket}/${encodeURIComponent(key)}`;
}

/** success_action_redirect (or the older `redirect`): 303 there with bucket, key and ETag; else 200, 201 with PostResponse, or 204. */
function answer(call: BucketCall, f: FormFields, key: string, info: ObjectInfo): void {
  const { x } = call;
  const etag = `"${info.etag}"`;
  const location = locationOf(call, key);
  const headers = { ETag: etag, Location: location, 'x-amz-version-id': info.versionId ?? undefined };
  const redirect = f.success_action_redirect ?? f.redirect;
  if (redirect) {
    const query = `bucket=${encodeURIComponent(call.bucket.name)}&key=${encodeURIComponent(key)}&etag=${encodeURIComponent(etag)}`;
    return sendEmpty(x, 303, { ...headers, Location: `${redirect}${redirect.includes('?') ? '&' : '?'}${query}` });
  }
  if (f.success_action_status === '201') {
    // AWS's PostResponse names no namespace.
    const body = el('PostResponse', [el('Location', location), el('Bucket', call.bucket.name), el('Key', key), el('ETag', etag)]);
    return sendXml(x, 201, body, headers);
  }
  sendEmpty(x, f.success_action_status === '200' ? 200 : 204, headers);
}

/**
 * POST Object (AWS "Browser-Based Uploads Using POST"): a multipart/form-data form whose fields
 * (key with `${filename}`, acl, Content-Type, x-amz-meta-*, success_action_*) come before the file,
 * signed by its policy (SigV4 or SigV2) or not at all. The file streams into the store as it
 * arrives; the caller the form names is put to the access decision as a PutObject's would be.
 */
export async function postObject(call: BucketCall<OpOf<'PostObject'>>): Promise<void> {
  const { x, ctx, op } = call;
  if (op.boundary === undefined) {
    throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'Bucket POST must be of the enclosure-type multipart/form-data' });
  }
  let form: Awaited<ReturnType<typeof readForm>>;
  try {
    form = await readForm(new MultipartReader(x.req, op.boundary));
  } catch (err) {
    if (err instanceof InvalidBoundary) throw malformed();
    throw err;
  }
  const { fields: f, file } = form;
  const account = formSigner(ctx.engine, f);
  if (f.key === undefined) throw new S3Error(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.  If it is specified, please check the order of the fields.", { ArgumentName: 'key', ArgumentValue: '' });
  const range = f.policy !== undefined ? checkPolicy(readPolicy(f.policy), f, call.bucket.name) : undefined;
  if (!file) throw new S3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.', { ArgumentName: 'file', ArgumentValue: '0' });
  const key = f.key.split('${filename}').join(form.filename);
  if (key === '') throw new S3Error(400, 'InvalidArgument', 'User key must have a length greater than 0.', { ArgumentName: 'key', ArgumentValue: '' });

  // The bucket as a PutObject from the form's signer would reach it (its own tenant's of that
  // name, or `tenant:bucket`); unsigned, as an anonymous PutObject's.
  const who = account !== undefined ? { account } : {};
  const ref = bucketRef(ctx.engine, op.address, who);
  const bucket = ref.tenant === call.ref.tenant ? call.bucket : ctx.engine.getContainerForRequest(ref);
  const address = { ...op.address, key };
  const facts = policyFacts(x, { ...op, address }, bucket);
  if (!decide({ who, container: bucket, action: 'write-object', facts })) throw new CofferError('AccessDenied');

  // Server-side encryption asked in the form is refused as PutObject refuses its headers.
  const encryption = encryptionRefusal(f, new Map(), '');
  if (encryption) throw encryption;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(f)) if (name.startsWith('x-amz-meta-') || !name.startsWith('x-amz-')) headers[name] = value;
  if (f['x-amz-storage-class'] !== undefined) checkStorageClass(f['x-amz-storage-class']);
  const acl = f.acl !== undefined ? aclFromHeaders({ 'x-amz-acl': f.acl }) : undefined;
  // AWS's POST takes the object's tags as a Tagging document (PutObjectTagging's), not x-amz-tagging's query form.
  const tags = f.tagging !== undefined ? tagsOfDocument(parseXmlText(f.tagging)) : undefined;
  const own: BucketCall = { ...call, who, ref, bucket };
  const info = await ctx.engine.putObject(ref, key, sized(file.body, range), {
    meta: readUserMeta(headers),
    headers: readStandard(headers),
    contentType: f['content-type'] || undefined,
    grants: uploadGrants(own, acl),
    tags,
    signal: abortedBy(x.req),
  });
  answer(own, f, key, info);
}
