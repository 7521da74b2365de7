import { CofferError } from '../../../../src-shared/errors.js';
import { segmentReader } from '../../common/access.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { httpDate } from '../../common/dates.js';
import { decodeStrict, encodePath } from '../../common/url.js';
import { truthy } from '../limits.js';
import { metaResponseHeaders } from '../metadata.js';
import { reachContainer } from '../reach.js';
import { fail, reply, type NativeCall } from '../respond.js';
import { readObjectFields, refOf } from './object.js';

/** `/container/object` or `container/object` (URL-encoded) -> its parts, or undefined when malformed. */
export function parseCopyPath(value: string | undefined): { container: string; name: string } | undefined {
  if (value === undefined) return undefined;
  const decoded = decodeStrict(value.trim());
  if (decoded === undefined) return undefined;
  const path = decoded.startsWith('/') ? decoded.slice(1) : decoded;
  const slash = path.indexOf('/');
  if (slash <= 0 || slash === path.length - 1) return undefined;
  return { container: path.slice(0, slash), name: path.slice(slash + 1) };
}

function accountOf(header: string | undefined, fallback: string): string {
  if (!header) return fallback;
  const v = decodeStrict(header.trim()) ?? header;
  return v.replace(/^(AUTH_|KEY_)/, '');
}

/**
 * Server-side copy (N7 COPY + Destination, N8 PUT + X-Copy-From). The source's metadata is kept
 * and extended by the request's, or dropped with X-Fresh-Metadata; copying an object onto itself
 * without metadata resets it (seed 4.1.3). Conditionals apply to the source, in both spellings.
 */
export async function copyObject(
  call: NativeCall,
  src: { account: string; container: string; name: string },
  dst: { account: string; container: string; name: string },
): Promise<void> {
  const { x, ctx } = call;
  const engine = ctx.engine;
  // Both ends are reached as the caller may reach them before either is looked into, so a
  // refusal never depends on whether a name exists.
  const srcContainer = reachContainer(call, src.account, src.container, 'read-object', src.name);
  const dstContainer = reachContainer(call, dst.account, dst.container, 'write-object');
  const source = engine.headObject(refOf(srcContainer), src.name, undefined, segmentReader(call.who));
  const cond = {
    ifMatch: x.header('copy-if-match') ?? x.header('if-match'),
    ifNoneMatch: x.header('copy-if-none-match') ?? x.header('if-none-match'),
    ifModifiedSince: x.header('if-modified-since'),
    ifUnmodifiedSince: x.header('if-unmodified-since'),
  };
  if (evaluateConditions(cond, { etag: source.etag, lastModified: source.lastModified }, false) !== 'ok') return fail(x, 412, 'PreconditionFailed');
  const fields = readObjectFields(call);
  if ('error' in fields) return fail(x, 400, fields.error);
  const sameObject = srcContainer.owner === dstContainer.owner && src.container === dst.container && src.name === dst.name;
  const fresh = truthy(x.header('x-fresh-metadata')) || (sameObject && Object.keys(fields.meta).length === 0);
  const { object } = await engine.copyObject(
    { ref: refOf(srcContainer), name: src.name },
    { ref: refOf(dstContainer), name: dst.name },
    {
      metadata: fresh ? 'replace' : 'copy',
      meta: fields.meta,
      ...(Object.keys(fields.headers).length ? { headers: fields.headers } : {}),
      contentType: fields.contentType ?? (fresh ? source.contentType : undefined),
      ...(fields.deleteAt !== undefined ? { deleteAt: fields.deleteAt } : {}),
      sourceEtag: source.etag,
      canRead: segmentReader(call.who),
    },
  );
  reply(x, 201, {
    Etag: object.etag,
    'Last-Modified': httpDate(object.lastModified),
    'Content-Type': object.contentType,
    'X-Copied-From': `${encodePath(src.container)}/${encodePath(src.name, false)}`,
    'X-Copied-From-Account': `AUTH_${src.account}`,
    'X-Copied-From-Last-Modified': httpDate(source.lastModified),
    ...metaResponseHeaders('Object', object.meta),
  });
}

/** COPY with Destination (N7), of `container`/`name` under the path's account. */
export function copyByDestination(call: NativeCall, container: string, name: string): Promise<void> {
  const dst = parseCopyPath(call.x.header('destination'));
  if (!dst) {
    const missing = call.x.header('destination') === undefined;
    fail(call.x, 412, missing ? 'Destination header required' : 'Destination header must be of the form <container name>/<object name>');
    return Promise.resolve();
  }
  const dstAccount = accountOf(call.x.header('destination-account'), call.account);
  return copyObject(call, { account: call.account, container, name }, { account: dstAccount, ...dst });
}

/** PUT with X-Copy-From (N8), onto `container`/`name` under the path's account. */
export function copyByCopyFrom(call: NativeCall, container: string, name: string): Promise<void> {
  const src = parseCopyPath(call.x.header('x-copy-from'));
  if (!src) {
    fail(call.x, 412, 'X-Copy-From header must be of the form <container name>/<object name>');
    return Promise.resolve();
  }
  const length = call.x.header('content-length');
  if (length !== undefined && length !== '0') throw new CofferError('InvalidArgument', 'Copy requests must have an empty body');
  const srcAccount = accountOf(call.x.header('x-copy-from-account'), call.account);
  return copyObject(call, { account: srcAccount, ...src }, { account: call.account, container, name });
}
