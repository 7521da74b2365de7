import { createHash } from 'node:crypto';
import { decide, manifestDocument, segmentReader, SLO_LIMITS, sloProblems, type ContainerInfo, type SegmentProblem, type SloSegmentSpec } from '../../../engine/index.js';
import { httpDate } from '../../common/dates.js';
import { readSmallBody } from '../../common/exchange.js';
import { encodePath } from '../../common/url.js';
import { el, xmlDocument } from '../../common/xml.js';
import { NativeError } from '../errors.js';
import { REPORT_CONTENT_TYPES } from '../listing-format.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';
import { sendDeleteReport } from './bulk.js';
import { getObject, objectHeaders, refOf } from './object.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const SEGMENT_KEYS = new Set(['path', 'etag', 'size_bytes']);

/** Parses a `multipart-manifest=put` body into segment specs, or the Swift-style refusal. */
export function parseManifest(body: Buffer): SloSegmentSpec[] {
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch {
    data = undefined;
  }
  if (!Array.isArray(data)) throw new NativeError(400, 'Manifest must be valid JSON.\n');
  if (data.length > SLO_LIMITS.maxSegments) throw new NativeError(413, `Number of segments must be <= ${SLO_LIMITS.maxSegments}`);
  const errors: string[] = [];
  const specs: SloSegmentSpec[] = [];
  for (const [i, seg] of (data as unknown[]).entries()) {
    if (typeof seg !== 'object' || seg === null || Array.isArray(seg)) {
      errors.push(`Index ${i}: not a JSON object`);
      continue;
    }
    const s = seg as Record<string, unknown>;
    // Swift also takes "range" and inline "data" segments; Coffer does not (yet), so say so.
    const extra = Object.keys(s).filter((k) => !SEGMENT_KEYS.has(k)).sort();
    if (extra.length) errors.push(`Index ${i}: extraneous keys "${extra.join('", "')}"`);
    const path = typeof s.path === 'string' ? s.path.replace(/^\/+/, '') : undefined;
    const slash = path?.indexOf('/') ?? -1;
    if (typeof s.path !== 'string') errors.push(`Index ${i}: "path" must be a string`);
    else if (slash <= 0 || slash === path!.length - 1) {
      errors.push(`Index ${i}: path does not refer to an object. Path must be of the form /container/object.`);
    }
    const size = typeof s.size_bytes === 'string' && /^\d+$/.test(s.size_bytes) ? Number(s.size_bytes) : s.size_bytes;
    if (size != null && !(typeof size === 'number' && Number.isSafeInteger(size) && size >= 0)) errors.push(`Index ${i}: invalid size_bytes`);
    if (s.etag != null && typeof s.etag !== 'string') errors.push(`Index ${i}: "etag" must be a string or null (if provided)`);
    if (errors.length === 0) {
      specs.push({ container: path!.slice(0, slash), name: path!.slice(slash + 1), etag: s.etag as string | null, size: size as number | null });
    }
  }
  if (errors.length) throw new NativeError(400, errors.join('\n'));
  return specs;
}

const PROBLEM_TEXT: Record<Exclude<SegmentProblem, 'forbidden'>, string> = {
  'not-found': '404 Not Found',
  'etag-mismatch': 'Etag Mismatch',
  'size-mismatch': 'Size Mismatch',
  'too-small': `Too small; each segment must be at least ${SLO_LIMITS.minSegmentSize} byte.`,
};

/** `PUT ?multipart-manifest=put` (§10.1): validate the segments, store the manifest, 201 with the quoted SLO ETag. */
export async function putManifest(call: NativeCall<NativeOpOf<'PutManifest'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, who, op } = call;
  const body = await readSmallBody(x.req, SLO_LIMITS.maxManifestBytes);
  if (body === 'too-large') throw new NativeError(413, `Manifest File > ${SLO_LIMITS.maxManifestBytes} bytes`);
  const specs = parseManifest(body);
  const { fields, etag, ifNoneMatch } = op;
  const name = op.path.object;
  try {
    const info = await ctx.engine.putStaticLargeObject(refOf(c), name, specs, {
      ...fields,
      ...(etag ? { expectedEtag: etag } : {}),
      ...(ifNoneMatch ? { ifNoneMatch } : {}),
      canRead: segmentReader(who, ctx.engine.accountAcl),
      quotaBytes: 'exact',
    });
    reply(x, 201, { Etag: `"${info.etag}"`, 'Last-Modified': httpDate(info.lastModified) });
  } catch (err) {
    const problems = sloProblems(err);
    if (!problems) throw err;
    const text = (p: SegmentProblem) => (p === 'forbidden' ? (who.account ? '403 Forbidden' : '401 Unauthorized') : PROBLEM_TEXT[p]);
    const rows = problems.map((p) => [encodePath(p.path), text(p.problem)] as const);
    const format = op.format;
    const out =
      format === 'json'
        ? JSON.stringify({ Errors: rows })
        : format === 'xml'
          ? xmlDocument(el('upload', [el('errors', rows.map(([n, s]) => el('object', [el('name', n), el('status', s)])))]))
          : `Errors:\n${rows.map(([n, s]) => `${n}, ${s}\n`).join('')}`;
    // Swift's slo types the report as the Accept type it matched, without a charset.
    x.send(400, baseHeaders(x, REPORT_CONTENT_TYPES[format]), out);
  }
}

/**
 * GET/HEAD `?multipart-manifest=get`: an SLO's stored manifest as JSON (`&format=raw`: the PUT
 * form, ready to be PUT again); any other object is served as stored (a DLO's own bytes).
 */
export async function getManifest(call: NativeCall<NativeOpOf<'GetManifest'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, op } = call;
  const m = ctx.engine.getStaticManifest(refOf(c), op.path.object);
  if (!m) return getObject(call, c, { raw: true });
  const body = manifestDocument(m.segments, op.raw);
  x.send(200, {
    ...baseHeaders(x),
    ...objectHeaders(m.info),
    'Content-Type': JSON_TYPE,
    // The ETag of what is sent (the manifest document), as Swift answers for the manifest itself.
    Etag: createHash('md5').update(body).digest('hex'),
    'Content-Length': Buffer.byteLength(body),
  }, body);
}

/** DELETE `?multipart-manifest=delete`: the segments and the manifest, with a bulk-delete report. */
export async function deleteManifest(call: NativeCall<NativeOpOf<'DeleteManifest'>>, c: ContainerInfo): Promise<void> {
  const { who } = call;
  const report = await call.ctx.engine.deleteStaticLargeObject(refOf(c), call.op.path.object, (seg, obj) => decide({ who, container: seg, action: obj === undefined ? 'admin' : 'write-object', accountAcl: () => call.ctx.engine.accountAcl(seg.owner) }));
  sendDeleteReport(call.x, who, call.op.format, report);
}
