import { Engine, type ContainerInfo, type CorsRule } from '../../../engine/index.js';
import type { Exchange, HeaderValues, OutgoingHeaders } from '../../common/exchange.js';
import type { ContainerPath, NativeOperation, NativeOpName, NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall, type NativeContext } from '../respond.js';

/**
 * A container's CORS metadata as the engine's rule (Swift's cors middleware in the proxy):
 * X-Container-Meta-Access-Control-Allow-Origin (space-separated origins, or `*`), -Max-Age and
 * -Expose-Headers; any method the path serves and any requested header are allowed.
 */
export function nativeCorsRule(c: ContainerInfo | undefined, methods: string[]): CorsRule | undefined {
  const origins = (c?.meta['access-control-allow-origin'] ?? '').split(' ').map((o) => o.trim()).filter(Boolean);
  if (!origins.length) return undefined;
  const maxAge = c?.meta['access-control-max-age'];
  // Swift splits the list at spaces only: `a,b` is one (odd) name.
  const expose = (c?.meta['access-control-expose-headers'] ?? '').split(' ').map((h) => h.trim()).filter(Boolean);
  const rule: CorsRule = { origins, methods, headers: ['*'], exposeHeaders: expose };
  if (maxAge !== undefined && /^\d+$/.test(maxAge.trim())) rule.maxAgeSeconds = Number(maxAge.trim());
  return rule;
}

/** Swift's is_origin_allowed: the origin as listed, or `*` among them (no wildcards inside an origin, unlike S3's rules). */
function originAllowed(rule: CorsRule, origin: string): boolean {
  return rule.origins.includes(origin) || rule.origins.includes('*');
}

/** Whether the container allows any origin by `*` alone (then answered `*`; otherwise the origin itself). */
const anyOrigin = (rule: CorsRule) => rule.origins.length === 1 && rule.origins[0] === '*';

/** What Swift exposes to scripts on every cross-origin answer: the simple response headers and its own. */
const EXPOSED = ['cache-control', 'content-language', 'content-type', 'expires', 'last-modified', 'pragma', 'etag', 'x-timestamp', 'x-trans-id', 'x-openstack-request-id'];

const has = (headers: OutgoingHeaders, name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);

/**
 * Swift's cors_validation on a container's or an object's answer to a request from `origin`:
 * nothing unless the container lists the origin (strict_cors_mode, Swift 2.30's default); then,
 * unless the answer has them already, Access-Control-Expose-Headers (Swift's list, the answer's
 * own container and object metadata names, the container's -Expose-Headers) and
 * Access-Control-Allow-Origin (`*`, or the origin with Vary: Origin). Added in place.
 * `metaOfAnswer` false: the answer's metadata is not the answer Swift's proxy gave (a copy's
 * middleware adds the source's after the proxy answered its destination PUT).
 */
export function addCorsAnswer(c: ContainerInfo | undefined, origin: string, headers: OutgoingHeaders, metaOfAnswer = true): void {
  const rule = nativeCorsRule(c, []);
  if (!rule || !originAllowed(rule, origin)) return;
  if (!has(headers, 'access-control-expose-headers')) {
    const exposed = new Set(EXPOSED);
    if (metaOfAnswer) {
      for (const k of Object.keys(headers)) {
        const name = k.toLowerCase();
        if (name.startsWith('x-container-meta') || name.startsWith('x-object-meta')) exposed.add(name);
      }
    }
    for (const h of rule.exposeHeaders) exposed.add(h.toLowerCase());
    headers['Access-Control-Expose-Headers'] = [...exposed].join(', ');
  }
  if (has(headers, 'access-control-allow-origin')) return;
  if (anyOrigin(rule)) {
    headers['Access-Control-Allow-Origin'] = '*';
    return;
  }
  headers['Access-Control-Allow-Origin'] = origin;
  const vary = Object.keys(headers).find((k) => k.toLowerCase() === 'vary');
  if (vary) headers[vary] = `${String(headers[vary])}, Origin`;
  else headers.Vary = 'Origin';
}

/**
 * The requests Swift's cors_validation wraps: its container and object controllers' GET, HEAD,
 * PUT, POST and DELETE (and what its middleware turns into one: a COPY is a PUT of its
 * destination). Not the account's, nor what a middleware answers itself (bulk operations, a
 * 405, a refused TempURL or token).
 */
const ANSWERED: ReadonlySet<NativeOpName> = new Set<NativeOpName>([
  'PutContainer', 'HeadContainer', 'ListContainer', 'ListVersions', 'PostContainer', 'DeleteContainer',
  'GetObject', 'HeadObject', 'GetManifest', 'PutObject', 'PutManifest', 'PutSymlink', 'PostObject', 'DeleteObject', 'RestoreVersion', 'CopyObject',
]);

/** The container whose CORS settings answer `op`, when it is a request Swift answers CORS on. */
function corsContainerOf(op: NativeOperation): ContainerPath | undefined {
  if (!ANSWERED.has(op.name)) return undefined;
  if (op.name === 'CopyObject') return op.to;
  return 'path' in op && op.path && 'container' in op.path ? op.path : undefined;
}

/** The container's settings as they are before the request (Swift reads its container info first); none when it is missing. */
function settingsOf(ctx: NativeContext, path: ContainerPath): ContainerInfo | undefined {
  try {
    return ctx.engine.getContainerForRequest(Engine.ref(path.account, path.container));
  } catch {
    return undefined;
  }
}

/**
 * Once the caller's token has been accepted (a refused token is tempauth's answer, before the
 * proxy): every answer to a cross-origin container or object request, refusals and errors too,
 * gets the container's CORS answer, so a script can read what happened.
 */
export function answerCorsOn(x: Exchange, ctx: NativeContext, op: NativeOperation): void {
  const origin = op.origin;
  const path = origin ? corsContainerOf(op) : undefined;
  if (!origin || !path) return;
  const c = settingsOf(ctx, path);
  const metaOfAnswer = op.name !== 'CopyObject';
  if (c) x.finishHead = (headers) => addCorsAnswer(c, origin, headers, metaOfAnswer);
}

/** The Access-Control-* headers a form post copies from the answer to its last file's PUT (Swift's formpost). */
export function formPostCors(c: ContainerInfo, origin: string | undefined): HeaderValues {
  const headers: OutgoingHeaders = {};
  if (origin) addCorsAnswer(c, origin, headers);
  delete headers.Vary;
  return headers;
}

/**
 * OPTIONS on a container or an object (Swift's proxy `OPTIONS`): without an Origin a plain 200
 * saying what the path allows; a preflight the container's CORS metadata allows gets the
 * Access-Control-* answer, any other 401. Asked of nobody: browsers send it without a token.
 */
export function preflight(call: NativeCall<NativeOpOf<'Preflight'>>): void {
  const { op, x, ctx } = call;
  const methods = op.allow.split(', ');
  const headers: HeaderValues = { Allow: op.allow };
  if (!op.origin) return reply(x, 200, headers);
  let c: ContainerInfo | undefined;
  try {
    c = ctx.engine.getContainerForRequest(Engine.ref(op.path.account, op.path.container));
  } catch {
    c = undefined; // Swift: a missing container has no CORS settings, so the answer is 401.
  }
  const rule = nativeCorsRule(c, methods);
  // Swift's refusal keeps the Allow header and challenges nobody: a preflight carries no token.
  if (!rule || !originAllowed(rule, op.origin) || !methods.includes(op.requestMethod ?? '')) return reply(x, 401, headers);
  headers['Access-Control-Allow-Origin'] = anyOrigin(rule) ? '*' : op.origin;
  headers.Vary = op.requestHeaders.length ? 'Origin, Access-Control-Request-Headers' : 'Origin';
  if (rule.maxAgeSeconds !== undefined) headers['Access-Control-Max-Age'] = rule.maxAgeSeconds;
  // Swift lists them in reverse order.
  headers['Access-Control-Allow-Methods'] = [...methods].reverse().join(', ');
  if (op.requestHeaders.length) headers['Access-Control-Allow-Headers'] = [...new Set(op.requestHeaders)].join(', ');
  // Swift's preflight answer has no body and no Content-Type.
  x.send(200, headers, '', { ...baseHeaders(x), 'Content-Type': undefined });
}
