// Shorthands the corpus tables are written with: they build rows, they hold no logic of their own.
import { createHash } from 'node:crypto';
import type { Req, Row } from '../types.js';

export const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

/** The fixture objects' bodies (fixtures.ts) and their ETags, for conditionals. */
export const OBJ_BODY = 'The quick brown fox jumps over the lazy dog\n';
export const OBJ_ETAG = md5(OBJ_BODY);
export const OBJ_SIZE = Buffer.byteLength(OBJ_BODY);

type RowExtra = Omit<Row, 'id' | 'api' | 'request'>;

/** A native row: `n('object.get', { method: 'GET', path: '/{f:objects}/obj' })`. */
export const n = (id: string, request: Req, extra: RowExtra = {}): Row => ({ id: `native.${id}`, api: 'native', request, ...extra });
/** An S3 row. */
export const s = (id: string, request: Req, extra: RowExtra = {}): Row => ({ id: `s3.${id}`, api: 's3', request, ...extra });

export const GET = (path: string, more: Partial<Req> = {}): Req => ({ method: 'GET', path, ...more });
export const HEAD = (path: string, more: Partial<Req> = {}): Req => ({ method: 'HEAD', path, ...more });
export const PUT = (path: string, more: Partial<Req> = {}): Req => ({ method: 'PUT', path, ...more });
export const POST = (path: string, more: Partial<Req> = {}): Req => ({ method: 'POST', path, ...more });
export const DELETE = (path: string, more: Partial<Req> = {}): Req => ({ method: 'DELETE', path, ...more });
export const COPY = (path: string, more: Partial<Req> = {}): Req => ({ method: 'COPY', path, ...more });

/** Set-up: the row's own container (native) or bucket (S3), with one text object in it. */
export const OWN_C: Req[] = [PUT('/{c}')];
export const OWN_C_OBJ: Req[] = [PUT('/{c}'), PUT('/{c}/obj', { body: OBJ_BODY, headers: { 'Content-Type': 'text/plain', 'X-Object-Meta-Color': 'red' } })];
export const OWN_B: Req[] = [PUT('/{b}')];
export const OWN_B_OBJ: Req[] = [PUT('/{b}'), PUT('/{b}/obj', { body: OBJ_BODY, headers: { 'Content-Type': 'text/plain', 'x-amz-meta-color': 'red' } })];

/** One S3 XML document, declaration included. */
export const xmlDoc = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>${body}`;
export const S3NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

/**
 * A tar archive (ustar; pax records first where given) as a string of its bytes: ASCII names and
 * contents only, so the string goes out as those very bytes. Bulk-upload rows send it as a body.
 */
export function tarOf(files: [name: string, content: string, pax?: Record<string, string>][]): string {
  const block = (s: string) => s + '\0'.repeat((512 - (s.length % 512)) % 512);
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, '0') + '\0';
  const header = (name: string, size: number, type: string) => {
    const fields = [name.padEnd(100, '\0'), octal(0o644, 8), octal(0, 8), octal(0, 8), octal(size, 12), octal(1700000000, 12), ' '.repeat(8), type, '\0'.repeat(100), 'ustar\x0000', '\0'.repeat(247)];
    const raw = fields.join('');
    let sum = 0;
    for (let i = 0; i < raw.length; i++) sum += raw.charCodeAt(i);
    return raw.slice(0, 148) + sum.toString(8).padStart(6, '0') + '\0 ' + raw.slice(156);
  };
  let out = '';
  for (const [name, content, pax] of files) {
    if (pax) {
      const records = Object.entries(pax).map(([k, v]) => {
        const rest = ` ${k}=${v}\n`;
        let n = rest.length + 1;
        while (`${n}${rest}`.length !== n) n += 1;
        return `${n}${rest}`;
      }).join('');
      out += header(`PaxHeader/${name}`.slice(0, 99), records.length, 'x') + block(records);
    }
    out += header(name, content.length, '0') + block(content);
  }
  return out + '\0'.repeat(1024);
}

/**
 * A form post's multipart body (boundary `FORMBOUNDARY`): the fields in order (the signed ones
 * first unless given), then the files; `[[form-sig]]`/`[[form-expires]]` are filled in by the
 * target from the request's `form` (see types.ts).
 */
export function formBody(fields: [string, string][], files: [field: string, filename: string, content: string, contentType?: string][], after: [string, string][] = []): string {
  const part = (disposition: string, value: string, type?: string) =>
    `--FORMBOUNDARY\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${value}\r\n`;
  return [
    ...fields.map(([k, v]) => part(`name="${k}"`, v)),
    ...files.map(([field, filename, content, type]) => part(`name="${field}"; filename="${filename}"`, content, type)),
    ...after.map(([k, v]) => part(`name="${k}"`, v)),
  ].join('') + '--FORMBOUNDARY--\r\n';
}

/**
 * An S3 browser form (POST Object) as a presigned POST makes it: the policy and signature fields
 * (SigV4, or SigV2 with `v2`; filled in by the target, see Req.postPolicy), then `fields`, then
 * the file. `conditions` (default: an `eq` of every field) are what the policy holds besides the
 * bucket and the signature's own; `signed: false` sends the form with no policy at all.
 */
export function s3Form(
  path: string,
  fields: [string, string][],
  file: [filename: string, content: string, contentType?: string] | undefined,
  o: { conditions?: unknown[]; extraConditions?: unknown[]; expires?: number; v2?: boolean; signed?: boolean; as?: Req['as'] } = {},
): Req {
  const signed = o.signed ?? true;
  const sig: [string, string][] = !signed ? []
    : o.v2 ? [['AWSAccessKeyId', '[[access-key]]'], ['policy', '[[policy]]'], ['signature', '[[signature]]']]
    : [['x-amz-algorithm', 'AWS4-HMAC-SHA256'], ['x-amz-credential', '[[x-amz-credential]]'], ['x-amz-date', '[[x-amz-date]]'], ['policy', '[[policy]]'], ['x-amz-signature', '[[x-amz-signature]]']];
  const conditions = [...(o.conditions ?? fields.map(([k, v]) => ({ [k]: v }))), ...(o.extraConditions ?? [])];
  return {
    method: 'POST',
    path,
    headers: { 'Content-Type': 'multipart/form-data; boundary=FORMBOUNDARY' },
    body: formBody([...sig, ...fields], file ? [['file', ...file]] : []),
    ...(signed ? { postPolicy: { expires: o.expires ?? 300, conditions, ...(o.v2 ? { v2: true } : {}) } } : {}),
    ...(o.as ? { as: o.as } : {}),
  };
}
