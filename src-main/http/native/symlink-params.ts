import type { SymlinkTarget } from '../../engine/index.js';
import type { RequestHeaders } from '../common/headers.js';
import { decodeStrict } from '../common/url.js';
import { NativeError, plainError } from './errors.js';
import type { NativeOperation, ObjectPath } from './operation.js';
import { putParams, type NativeReader } from './parse-object.js';
import { parseCopyPath } from './params.js';

// The symlink headers of a PUT (Swift's symlink middleware, 2.30), checked in the order it checks them.

const TARGET_FORM = 'X-Symlink-Target header must be of the form <container name>/<object name>';

/** The account part of `X-Symlink-Target-Account` as a path names it (`AUTH_…`), or the link's own. */
export function linkAccount(link: SymlinkTarget, own: string): string {
  return link.account === undefined ? own : link.account.replace(/^(AUTH_|KEY_)/, '');
}

/** `PUT` with `X-Symlink-Target`: a zero-byte body, a `<container>/<object>` target that is not the link itself. */
export function putSymlink(path: ObjectPath, headers: RequestHeaders, h: (n: string) => string | undefined, r: NativeReader): NativeOperation {
  const length = h('content-length');
  if (length !== undefined && length.trim() !== '0') r.fail(plainError(400, 'Symlink requests require a zero byte body'));
  const raw = h('x-symlink-target') ?? '';
  const decoded = decodeStrict(raw);
  const target = decoded === undefined || decoded.startsWith('/') ? undefined : parseCopyPath(raw);
  // A leading slash is the symlink middleware's own check (plain text); other forms fail Swift's
  // common path check, in its HTML type.
  if (!target) r.fail(decoded?.startsWith('/') ? plainError(412, TARGET_FORM) : new NativeError(412, TARGET_FORM));
  const accountHeader = h('x-symlink-target-account');
  let account: string | undefined;
  if (accountHeader !== undefined) {
    account = decodeStrict(accountHeader) ?? accountHeader;
    if (!account) r.fail(new NativeError(412, 'Account name cannot be empty'));
    else if (account.includes('/')) r.fail(new NativeError(412, 'Account name cannot contain slashes'));
  }
  const link: SymlinkTarget = { container: target?.container ?? '', object: target?.name ?? '' };
  if (account) link.account = account;
  const ownAccount = `AUTH_${path.account}`;
  if (target && (account ?? ownAccount) === ownAccount && link.container === path.container && link.object === path.object) {
    r.fail(plainError(400, 'Symlink cannot target itself'));
  }
  const etag = unquote(h('x-symlink-target-etag'));
  if (etag && /[;"\\]/.test(etag)) r.fail(plainError(400, 'Bad X-Symlink-Target-Etag format'));
  if (etag) link.etag = etag;
  const params = putParams(headers, h, r);
  return { name: 'PutSymlink', path, link, size: params.size, ifNoneMatch: params.ifNoneMatch, fields: params.fields };
}

/** Swift's normalize_etag: one pair of surrounding quotes dropped. */
function unquote(etag: string | undefined): string | undefined {
  return etag && etag.length > 1 && etag.startsWith('"') && etag.endsWith('"') ? etag.slice(1, -1) : etag;
}
