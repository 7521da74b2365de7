import { createHash } from 'node:crypto';
import { SLO_LIMITS, sloProblems, type SegmentProblem, type SloSegmentSpec } from '../../../engine/ops/large-objects.js';
import type { ContainerInfo, SloSegment } from '../../../engine/types.js';
import { allowed } from '../../common/access.js';
import { httpDate } from '../../common/dates.js';
import { readSmallBody } from '../../common/exchange.js';
import { encodePath } from '../../common/url.js';
import { el, xmlDocument } from '../../common/xml.js';
import { CONTENT_TYPES, listingFormat } from '../listing-format.js';
import { baseHeaders, fail, reply, type NativeCall } from '../respond.js';
import { sendDeleteReport } from './bulk.js';
import { getObject, objectHeaders, readObjectFields, refOf } from './object.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const SEGMENT_KEYS = new Set(['path', 'etag', 'size_bytes']);

/** Parses a `multipart-manifest=put` body into segment specs, or the Swift-style refusal. */
export function parseManifest(body: Buffer): SloSegmentSpec[] | { status: number; body: string } {
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch {
    data = undefined;
  }
  if (!Array.isArray(data)) return { status: 400, body: 'Manifest must be valid JSON.\n' };
  if (data.length > SLO_LIMITS.maxSegments) return { status: 413, body: `Number of segments must be <= ${SLO_LIMITS.maxSegments}` };
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
  return errors.length ? { status: 400, body: errors.join('\n') } : specs;
}

const PROBLEM_TEXT: Record<Exclude<SegmentProblem, 'forbidden'>, string> = {
  'not-found': '404 Not Found',
  'etag-mismatch': 'Etag Mismatch',
  'size-mismatch': 'Size Mismatch',
  'too-small': `Too small; each segment must be at least ${SLO_LIMITS.minSegmentSize} byte.`,
};

/** `PUT ?multipart-manifest=put` (§10.1): validate the segments, store the manifest, 201 with the quoted SLO ETag. */
export async function putManifest(call: NativeCall, c: ContainerInfo, name: string): Promise<void> {
  const { x, ctx, who } = call;
  if (x.header('x-copy-from') !== undefined) return fail(x, 405, 'Multipart Manifest PUTs cannot be COPY requests');
  const length = x.header('content-length');
  if (length === undefined && !/chunked/i.test(x.header('transfer-encoding') ?? '')) return fail(x, 411, 'Missing Content-Length header.');
  const tooLarge = `Manifest File > ${SLO_LIMITS.maxManifestBytes} bytes`;
  if (Number(length) > SLO_LIMITS.maxManifestBytes) return fail(x, 413, tooLarge);
  const ifNoneMatch = x.header('if-none-match');
  if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') return fail(x, 400, 'If-None-Match only supports *');
  const fields = readObjectFields(call);
  if ('error' in fields) return fail(x, 400, fields.error);
  const body = await readSmallBody(x.req, SLO_LIMITS.maxManifestBytes);
  if (body === 'too-large') return fail(x, 413, tooLarge);
  const specs = parseManifest(body);
  if (!Array.isArray(specs)) return fail(x, specs.status, specs.body);
  const etag = x.header('etag');
  try {
    const info = await ctx.engine.putStaticLargeObject(refOf(c), name, specs, {
      ...fields,
      ...(etag ? { expectedEtag: etag } : {}),
      ...(ifNoneMatch ? { ifNoneMatch: '*' as const } : {}),
      canRead: (segContainer) => allowed(segContainer, who, 'read-object'),
    });
    reply(x, 201, { Etag: `"${info.etag}"`, 'Last-Modified': httpDate(info.lastModified) });
  } catch (err) {
    const problems = sloProblems(err);
    if (!problems) throw err;
    const text = (p: SegmentProblem) => (p === 'forbidden' ? (who.account ? '403 Forbidden' : '401 Unauthorized') : PROBLEM_TEXT[p]);
    const rows = problems.map((p) => [encodePath(p.path), text(p.problem)] as const);
    const format = listingFormat(x);
    const out =
      format === 'json'
        ? JSON.stringify({ Errors: rows })
        : format === 'xml'
          ? xmlDocument(el('upload', [el('errors', rows.map(([n, s]) => el('object', [el('name', n), el('status', s)])))]))
          : `Errors:\n${rows.map(([n, s]) => `${n}, ${s}\n`).join('')}`;
    x.send(400, baseHeaders(x, CONTENT_TYPES[format]), out);
  }
}

/** Swift's manifest timestamps: microseconds, no zone. */
function manifestTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

function manifestRow(s: SloSegment, raw: boolean): Record<string, unknown> {
  const path = `/${s.container}/${s.name}`;
  if (raw) return { path, etag: s.etag, size_bytes: s.size };
  return {
    name: path,
    hash: s.etag,
    bytes: s.size,
    content_type: s.contentType,
    last_modified: manifestTime(s.lastModified),
    ...(s.subSlo ? { sub_slo: true } : {}),
  };
}

/**
 * GET/HEAD `?multipart-manifest=get`: an SLO's stored manifest as JSON (`&format=raw`: the PUT
 * form, ready to be PUT again); any other object is served as stored (a DLO's own bytes).
 */
export async function getManifest(call: NativeCall, c: ContainerInfo, name: string): Promise<void> {
  const { x, ctx } = call;
  const m = ctx.engine.getStaticManifest(refOf(c), name);
  if (!m) return getObject(call, c, name, { raw: true });
  const body = JSON.stringify(m.segments.map((s) => manifestRow(s, x.param('format') === 'raw')));
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
export async function deleteManifest(call: NativeCall, c: ContainerInfo, name: string): Promise<void> {
  const { who } = call;
  const report = await call.ctx.engine.deleteStaticLargeObject(refOf(c), name, (seg, obj) => allowed(seg, who, obj === undefined ? 'admin' : 'write-object'));
  sendDeleteReport(call.x, who, report);
}
