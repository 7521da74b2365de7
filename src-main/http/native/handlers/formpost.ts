import { createHmac, timingSafeEqual } from 'node:crypto';
import { isCofferError } from '../../../../src-shared/errors.js';
import { decide, Engine } from '../../../engine/index.js';
import { abortedBy, type HeaderValues } from '../../common/exchange.js';
import { NATIVE_ERRORS, NativeError } from '../errors.js';
import { InvalidBoundary, MultipartReader, parseContentDisposition, type FormPart } from '../../common/multipart.js';
import type { NativeOpOf } from '../operation.js';
import { readDeleteAt } from '../params.js';
import { reply, type NativeCall } from '../respond.js';
import { swiftStatus } from './bulk-upload.js';
import { keysFor } from './tempurl.js';
import { formPostCors } from './cors.js';

/** What /info publishes as `formpost`: Swift 2.30's default digests, SHA-1 deprecated. */
export const FORMPOST = { allowed_digests: ['sha1', 'sha256', 'sha512'], deprecated_digests: ['sha1'] };

/** Swift's MAX_VALUE_LENGTH: a form field's value past this is cut. */
const MAX_VALUE_LENGTH = 4096;

/** A refusal of the form: 400 `FormPost: <message>` (FormInvalid), or 401 with the message title-cased (FormUnauthorized). */
class FormRefused extends Error {
  constructor(
    readonly status: 400 | 401,
    message: string,
  ) {
    super(message);
  }
}

/** Python's str.title(): each run of letters capitalised after a non-letter. */
const title = (s: string) => s.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_m, pre: string, c: string) => pre + c.toUpperCase());
/** Python's str.rstrip('\r\n--'): every trailing CR, LF and dash. */
const rstripDashes = (s: string) => s.replace(/[\r\n-]+$/, '');
/** Python's urllib.parse.quote (safe '/'). */
const quote = (s: string) => encodeURIComponent(s).replace(/%2F/g, '/').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** Python's int() of a field: an integer, surrounding whitespace allowed. */
function integer(v: string | undefined, refusal: string): number {
  if (!v) return 0;
  if (!/^\s*[+-]?\d+\s*$/.test(v)) throw new FormRefused(400, refusal);
  return Number(v.trim());
}

/** `<hex>` (the digest by its length) or `<digest>:<base64>`, as swift.common.digest reads a signature; undefined: no signature. */
function readSignature(sig: string): { digest: string; hex: string } | undefined {
  const colon = sig.indexOf(':');
  if (colon >= 0) {
    let b64 = sig.slice(colon + 1);
    if (/[-_]/.test(b64) && !/[+/]/.test(b64)) b64 = b64.replace(/-/g, '+').replace(/_/g, '/');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
    return { digest: sig.slice(0, colon), hex: Buffer.from(b64, 'base64').toString('hex') };
  }
  if (!/^([0-9a-fA-F]{2})*$/.test(sig)) return undefined;
  const digest = ({ 40: 'sha1', 64: 'sha256', 128: 'sha512' } as Record<number, string>)[sig.length];
  return digest ? { digest, hex: sig } : undefined;
}

/** Bytes of a file part, refused once past `max` (Swift's _CappedFileLikeObject). */
class TooLarge extends Error {}
async function* capped(body: AsyncIterable<Buffer>, max: number): AsyncGenerator<Buffer> {
  let n = 0;
  for await (const chunk of body) {
    n += chunk.length;
    if (n > max) throw new TooLarge();
    yield chunk;
  }
}

interface Outcome {
  /** Swift's status line, e.g. `201 Created`. */
  status: string;
  message: string;
  /** The Access-Control-* headers of the last file's PUT, which Swift's answer copies. */
  cors: HeaderValues;
}

/** The answer to one file's PUT: its status line and its CORS headers. */
interface Stored {
  status: string;
  cors: HeaderValues;
}

/**
 * Stores one file of the form, once the form so far says it may (Swift's _perform_subrequest):
 * its fields' integers, its expiry, then the signature over the path, redirect, limits and expiry;
 * the file then goes in as the account's own PUT would, cut off past max_file_size.
 */
async function storeFile(call: NativeCall<NativeOpOf<'FormPost'>>, fields: Record<string, string>, filename: string, part: FormPart, keys: string[]): Promise<Stored> {
  const { ctx, op, x } = call;
  if (!keys.length) throw new FormRefused(401, 'invalid signature');
  const maxSize = integer(fields.max_file_size, 'max_file_size not an integer');
  const headers: Record<string, string> = {};
  if ('x_delete_at' in fields) headers['x-delete-at'] = String(integer(fields.x_delete_at, 'x_delete_at not an integer: Unix timestamp required.'));
  if ('x_delete_after' in fields) headers['x-delete-after'] = String(integer(fields.x_delete_after, 'x_delete_after not an integer: Number of seconds required.'));
  if (integer(fields.expires, 'expired not an integer') < Date.now() / 1000) throw new FormRefused(401, 'form expired');
  const message = [op.signedPath, fields.redirect || '', fields.max_file_size || '0', fields.max_file_count || '0', fields.expires || '0'].join('\n');
  const sig = readSignature(fields.signature ?? '');
  if (!sig || !FORMPOST.allowed_digests.includes(sig.digest)) throw new FormRefused(401, 'invalid signature');
  const given = Buffer.from(sig.hex);
  const valid = keys.some((key) => {
    const mac = Buffer.from(createHmac(sig.digest, key).update(message).digest('hex'));
    return mac.length === given.length && timingSafeEqual(mac, given);
  });
  if (!valid) throw new FormRefused(401, 'invalid signature');

  // The PUT Swift makes for it, acting as the account.
  const path = op.path;
  if (!('container' in path)) return { status: swiftStatus(404), cors: {} };
  const name = ('object' in path ? path.object : '') + filename;
  // A missing container has no CORS settings: its 404 has no CORS answer.
  let cors: HeaderValues = {};
  const answer = (status: number): Stored => ({ status: swiftStatus(status), cors });
  try {
    const c = ctx.engine.getContainerForRequest(Engine.ref(path.account, path.container));
    cors = formPostCors(c, op.origin);
    if (!decide({ who: { account: path.account }, container: c, action: 'write-object', through: path.account })) return answer(403);
    const deleteAt = readDeleteAt(headers);
    const ref = { tenant: c.tenant, container: c.name };
    if (c.archive) await ctx.engine.archiveCurrent(ref, name);
    const standard = fields['content-encoding'] !== undefined ? { contentEncoding: fields['content-encoding'] } : {};
    await ctx.engine.putObject(ref, name, capped(part.body, maxSize), { meta: {}, headers: standard, contentType: fields['content-type'] || undefined, deleteAt, signal: abortedBy(x.req) });
    return answer(201);
  } catch (err) {
    if (err instanceof TooLarge) throw new FormRefused(400, 'max_file_size exceeded');
    if (err instanceof NativeError) return answer(err.status);
    if (isCofferError(err)) return answer(NATIVE_ERRORS[err.code].status);
    throw err;
  }
}

/** A field's value: its first 4096 bytes, the rest read and dropped, trailing CR, LF and dashes stripped (Swift's quirk). */
async function fieldValue(part: FormPart): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of part.body) {
    if (n < MAX_VALUE_LENGTH) chunks.push(chunk.subarray(0, MAX_VALUE_LENGTH - n));
    n += chunk.length;
  }
  return rstripDashes(Buffer.concat(chunks).toString('utf8'));
}

/** Swift's _translate_form: the fields before each file, each file stored as it streams in, the first failure ending the form. */
async function translateForm(call: NativeCall<NativeOpOf<'FormPost'>>): Promise<Outcome & { fields: Record<string, string> }> {
  const { ctx, op, x } = call;
  const keys = 'container' in op.path ? keysFor(ctx, op.path.account, op.path.container) : [];
  const reader = new MultipartReader(x.req, op.boundary);
  const fields: Record<string, string> = {};
  let status = '';
  let message = '';
  let cors: HeaderValues = {};
  let files = 0;
  for (let part = await reader.next(); part; part = await reader.next()) {
    const [disposition, attrs] = parseContentDisposition(part.headers['content-disposition'] ?? '');
    if (disposition === 'form-data' && attrs.filename) {
      files += 1;
      if (files > integer(fields.max_file_count, 'max_file_count not an integer')) {
        status = swiftStatus(400);
        message = 'max file count exceeded';
        break;
      }
      const own = { ...fields };
      if (!('content-type' in fields) && 'content-type' in part.headers) own['content-type'] = part.headers['content-type'] || 'application/octet-stream';
      if (!('content-encoding' in fields) && 'content-encoding' in part.headers) own['content-encoding'] = part.headers['content-encoding']!;
      ({ status, cors } = await storeFile(call, own, attrs.filename, part, keys));
      if (!status.startsWith('2')) break;
    } else {
      const value = await fieldValue(part);
      if (attrs.name !== undefined) fields[attrs.name.toLowerCase()] = value;
    }
  }
  if (!status) {
    status = swiftStatus(400);
    message = 'no files to process';
  }
  return { status, message, cors, fields };
}

/**
 * `POST` of a multipart/form-data body to a container or a prefix in one (Swift's formpost): a
 * browser's form upload, authorised by its signature (HMAC over the path, redirect, limits and
 * expiry with a TempURL key of the account or the container). Answers 303 to `redirect` with
 * `status` and `message`, else the status line itself.
 */
export async function formPost(call: NativeCall<NativeOpOf<'FormPost'>>): Promise<void> {
  const { x } = call;
  let outcome: Awaited<ReturnType<typeof translateForm>>;
  try {
    outcome = await translateForm(call);
  } catch (err) {
    if (err instanceof InvalidBoundary) throw new NativeError(400, 'FormPost: invalid starting boundary', { 'Content-Type': 'text/plain' });
    if (err instanceof FormRefused && err.status === 400) throw new NativeError(400, `FormPost: ${err.message}`, { 'Content-Type': 'text/plain' });
    // swob's HTTPUnauthorized with a body: an HTML type, and a realm naming no account.
    if (err instanceof FormRefused) throw new NativeError(401, `FormPost: ${title(err.message)}`, { 'Content-Type': 'text/html; charset=UTF-8', 'Www-Authenticate': 'Swift realm="unknown"' });
    throw err;
  }
  const { status, message, cors, fields } = outcome;
  const code = Number(status.split(' ')[0]);
  const redirect = fields.redirect;
  if (!redirect) return reply(x, code, { ...cors, 'Content-Type': 'text/plain' }, message ? `${status}\r\nFormPost: ${title(message)}` : status);
  const location = `${redirect}${redirect.includes('?') ? '&' : '?'}status=${quote(String(code))}&message=${quote(message)}`;
  // As Swift's: the page says where to go, without a Content-Type.
  x.send(303, { ...cors, Location: location, 'X-Trans-Id': x.id, 'X-Openstack-Request-Id': x.id }, `<html><body><p><a href="${location}">Click to continue...</a></p></body></html>`);
}
