import { Engine, matchCors, type ContainerInfo, type CorsRule } from '../../../engine/index.js';
import type { HeaderValues } from '../../common/exchange.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';

/**
 * A container's CORS metadata as the engine's rule (Swift's cors middleware in the proxy):
 * X-Container-Meta-Access-Control-Allow-Origin (space-separated origins, or `*`), -Max-Age and
 * -Expose-Headers; any method the path serves and any requested header are allowed.
 */
export function nativeCorsRule(c: ContainerInfo | undefined, methods: string[]): CorsRule | undefined {
  const origins = (c?.meta['access-control-allow-origin'] ?? '').split(' ').filter(Boolean);
  if (!origins.length) return undefined;
  const maxAge = c?.meta['access-control-max-age'];
  const expose = (c?.meta['access-control-expose-headers'] ?? '').split(/[ ,]+/).filter(Boolean);
  const rule: CorsRule = { origins, methods, headers: ['*'], exposeHeaders: expose };
  if (maxAge !== undefined && /^\d+$/.test(maxAge.trim())) rule.maxAgeSeconds = Number(maxAge.trim());
  return rule;
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
  if (!rule || !matchCors([rule], op.origin, op.requestMethod ?? '', op.requestHeaders)) return reply(x, 401, headers, 'Unauthorized');
  headers['Access-Control-Allow-Origin'] = rule.origins.length === 1 && rule.origins[0] === '*' ? '*' : op.origin;
  headers.Vary = op.requestHeaders.length ? 'Origin, Access-Control-Request-Headers' : 'Origin';
  if (rule.maxAgeSeconds !== undefined) headers['Access-Control-Max-Age'] = rule.maxAgeSeconds;
  // Swift lists them in reverse order.
  headers['Access-Control-Allow-Methods'] = [...methods].reverse().join(', ');
  if (op.requestHeaders.length) headers['Access-Control-Allow-Headers'] = [...new Set(op.requestHeaders)].join(', ');
  // Swift's preflight answer has no body and no Content-Type.
  x.send(200, headers, '', { ...baseHeaders(x), 'Content-Type': undefined });
}
