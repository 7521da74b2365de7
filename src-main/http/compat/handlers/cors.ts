import { corsProblem, matchCors, wildcardMatch, type CorsRule } from '../../../engine/index.js';
import type { Exchange, HeaderValues } from '../../common/exchange.js';
import { el, type XmlNode } from '../../common/xml.js';
import { S3Error, s3 } from '../errors.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';

type Node = Record<string, unknown>;

/** The texts of a repeated element (fast-xml-parser gives an array: xml-input lists these names). */
const texts = (n: Node, name: string): string[] => ((n[name] as unknown[] | undefined) ?? []).map((v) => (typeof v === 'object' ? '' : String(v).trim()));

function ruleOf(n: Node): CorsRule {
  const rule: CorsRule = {
    origins: texts(n, 'AllowedOrigin'),
    methods: texts(n, 'AllowedMethod'),
    headers: texts(n, 'AllowedHeader'),
    exposeHeaders: texts(n, 'ExposeHeader'),
  };
  const id = text(n, 'ID');
  if (id !== undefined) rule.id = id;
  const maxAge = text(n, 'MaxAgeSeconds');
  if (maxAge !== undefined) {
    if (!/^\d{1,10}$/.test(maxAge)) throw s3.malformedXml();
    rule.maxAgeSeconds = Number(maxAge);
  }
  return rule;
}

export async function putBucketCors(call: BucketCall<OpOf<'PutBucketCors'>>): Promise<void> {
  const doc = await readXml(call.x.req, call.op.document);
  const root = doc?.CORSConfiguration;
  if (!root || typeof root !== 'object') throw s3.malformedXml();
  const rules = (((root as Node).CORSRule as Node[] | undefined) ?? []).map((r) => ruleOf(typeof r === 'object' && r ? r : {}));
  const problem = corsProblem(rules);
  if (problem) throw new S3Error(400, problem.code, problem.message);
  await call.ctx.engine.updateContainer(call.ref, { cors: rules });
  sendEmpty(call.x, 200);
}

function ruleXml(r: CorsRule): XmlNode {
  const body: XmlNode[] = [];
  if (r.id !== undefined) body.push(el('ID', r.id));
  for (const h of r.headers) body.push(el('AllowedHeader', h));
  for (const m of r.methods) body.push(el('AllowedMethod', m));
  for (const o of r.origins) body.push(el('AllowedOrigin', o));
  for (const h of r.exposeHeaders) body.push(el('ExposeHeader', h));
  if (r.maxAgeSeconds !== undefined) body.push(el('MaxAgeSeconds', r.maxAgeSeconds));
  return el('CORSRule', body);
}

export function getBucketCors(call: BucketCall): void {
  const rules = call.bucket.cors;
  if (!rules) throw new S3Error(404, 'NoSuchCORSConfiguration', 'The CORS configuration does not exist');
  sendXml(call.x, 200, s3Root('CORSConfiguration', rules.map(ruleXml)));
}

export async function deleteBucketCors(call: BucketCall): Promise<void> {
  await call.ctx.engine.updateContainer(call.ref, { cors: null });
  sendEmpty(call.x, 204);
}

/** The Access-Control headers a matched rule grants (AWS: `*` stays `*`, a named origin is echoed with credentials allowed). */
function grantHeaders(rule: CorsRule, origin: string): HeaderValues {
  const any = rule.origins.find((o) => wildcardMatch(o, origin)) === '*';
  const h: HeaderValues = {
    'Access-Control-Allow-Origin': any ? '*' : origin,
    'Access-Control-Allow-Methods': rule.methods.join(', '),
    Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
  if (!any) h['Access-Control-Allow-Credentials'] = 'true';
  if (rule.exposeHeaders.length) h['Access-Control-Expose-Headers'] = rule.exposeHeaders.join(', ');
  if (rule.maxAgeSeconds !== undefined) h['Access-Control-Max-Age'] = rule.maxAgeSeconds;
  return h;
}

const forbidden = (why: string) => new S3Error(403, 'AccessForbidden', `CORSResponse: ${why}`);

/**
 * A browser's preflight (`OPTIONS` with Origin and Access-Control-Request-Method): 200 with what
 * the first matching rule allows, else 403, as AWS answers. No signature is checked: browsers
 * send preflights without credentials, presigned URL or not.
 */
export function preflightCors(call: BucketCall<OpOf<'PreflightCors'>>): void {
  const { origin, requestMethod, requestHeaders } = call.op;
  if (!origin) throw new S3Error(400, 'BadRequest', 'Insufficient information. Origin request header needed.');
  if (!requestMethod) throw new S3Error(400, 'BadRequest', 'Invalid Access-Control-Request-Method: null');
  if (!call.bucket.cors) throw forbidden('CORS is not enabled for this bucket.');
  const rule = matchCors(call.bucket.cors, origin, requestMethod, requestHeaders);
  if (!rule) {
    throw forbidden(
      "This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
    );
  }
  const headers = grantHeaders(rule, origin);
  if (requestHeaders.length) headers['Access-Control-Allow-Headers'] = requestHeaders.map((h) => h.toLowerCase()).join(', ');
  sendEmpty(call.x, 200, headers);
}

/**
 * An actual cross-origin request on a bucket with CORS rules (its Origin read by the parser, as
 * every header is): the grant of the first rule matching its origin and method, set before the
 * handler answers so errors carry it too (a script can then read why its request failed).
 */
export function addCorsGrant(x: Exchange, rules: readonly CorsRule[], origin: string): void {
  const rule = matchCors(rules, origin, x.method);
  if (!rule) return;
  for (const [k, v] of Object.entries(grantHeaders(rule, origin))) if (v !== undefined) x.res.setHeader(k, v as string | number);
}
