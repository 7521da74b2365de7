import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { decide, manifestDocument, segmentReader, SLO_LIMITS, sloProblems, type ContainerInfo, type ObjectRead, type SegmentProblem, type SegmentRange, type SloSegmentSpec } from '../../../engine/index.js';
import { httpDate } from '../../common/dates.js';
import { readSmallBody } from '../../common/exchange.js';
import { encodePath } from '../../common/url.js';
import { el, xmlDocument } from '../../common/xml.js';
import { NativeError, plainError } from '../errors.js';
import { REPORT_CONTENT_TYPES } from '../listing-format.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';
import { sendDeleteReport } from './bulk.js';
import { getObject, objectHeaders, refOf } from './object.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const SEGMENT_KEYS = new Set(['path', 'etag', 'size_bytes', 'range']);

/**
 * A segment's `range` as Swift's swob.Range reads `bytes=<range>`: `M-N`, `M-` or `-N`, one of
 * them (`multiple`), or `invalid`.
 */
function parseSegmentRange(text: string): SegmentRange | 'invalid' | 'multiple' {
  const specs = text.replace(/ /g, '').split(',');
  const out: SegmentRange[] = [];
  for (const spec of specs) {
    const m = /^(\d*)-(\d*)$/.exec(spec);
    if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
    const first = m[1] === '' ? null : Number(m[1]);
    const last = m[2] === '' ? null : Number(m[2]);
    if (first !== null && last !== null && last < first) return 'invalid';
    out.push({ first, last });
  }
  return out.length > 1 ? 'multiple' : out[0]!;
}

/** Whether a range has any byte in a segment of `size` bytes (Swift checks it at once when the client gave the size). */
function satisfiable(r: SegmentRange, size: number): boolean {
  return r.first === null ? r.last !== 0 && size > 0 : r.first < size;
}

/** Parses a `multipart-manifest=put` body into segment specs, or the Swift-style refusal. */
export function parseManifest(body: Buffer): SloSegmentSpec[] {
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch {
    data = undefined;
  }
  if (data === undefined) throw new NativeError(400, 'Manifest must be valid JSON.\n');
  if (!Array.isArray(data)) throw new NativeError(400, 'Manifest must be a list.\n');
  if (data.length > SLO_LIMITS.maxSegments) throw new NativeError(413, `Number of segments must be <= ${SLO_LIMITS.maxSegments}`);
  const errors: string[] = [];
  const specs: SloSegmentSpec[] = [];
  for (const [i, seg] of (data as unknown[]).entries()) {
    if (typeof seg !== 'object' || seg === null || Array.isArray(seg)) {
      errors.push(`Index ${i}: not a JSON object`);
      continue;
    }
    const s = seg as Record<string, unknown>;
    // Swift also takes inline "data" segments; Coffer does not (yet), so it names the key it refuses.
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
    // Swift skips an empty range, and checks one against the size the client gave.
    let range: SegmentRange | undefined;
    if (s.range !== undefined && s.range !== null && s.range !== '') {
      const r = typeof s.range === 'string' ? parseSegmentRange(s.range) : 'invalid';
      if (r === 'invalid') errors.push(`Index ${i}: invalid range`);
      else if (r === 'multiple') errors.push(`Index ${i}: multiple ranges (only one allowed)`);
      else if (typeof size === 'number' && !satisfiable(r, size)) errors.push(`Index ${i}: unsatisfiable range`);
      else range = r;
    }
    if (errors.length === 0) {
      specs.push({
        container: path!.slice(0, slash),
        name: path!.slice(slash + 1),
        etag: s.etag as string | null,
        size: size as number | null,
        ...(range ? { range } : {}),
      });
    }
  }
  if (errors.length) throw plainError(400, errors.join('\n'));
  return specs;
}

const PROBLEM_TEXT: Record<Exclude<SegmentProblem, 'forbidden'>, string> = {
  'not-found': '404 Not Found',
  'etag-mismatch': 'Etag Mismatch',
  'size-mismatch': 'Size Mismatch',
  'too-small': `Too small; each segment must be at least ${SLO_LIMITS.minSegmentSize} byte.`,
  'unsatisfiable-range': 'Unsatisfiable Range',
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
 * form, ready to be PUT again, under the object's own content type as Swift leaves it); any
 * other object is served as stored (a DLO's own bytes).
 */
export async function getManifest(call: NativeCall<NativeOpOf<'GetManifest'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, op } = call;
  const m = ctx.engine.getStaticManifest(refOf(c), op.path.object);
  if (!m) return getObject(call, c, { raw: true });
  const body = manifestDocument(m.segments, op.raw);
  // The manifest object itself: Swift adds no X-Manifest-Etag to it (its ETag is that).
  const { 'X-Manifest-Etag': _manifestEtag, ...own } = objectHeaders(m.info);
  x.send(200, {
    ...baseHeaders(x),
    ...own,
    ...(op.raw ? {} : { 'Content-Type': JSON_TYPE }),
    // The ETag of what is sent (the manifest document), as Swift answers for the manifest itself.
    Etag: createHash('md5').update(body).digest('hex'),
    'Content-Length': Buffer.byteLength(body),
  }, body);
}

/**
 * Swift's server (eventlet) writes nothing, status line included, until 4 KiB of body are ready
 * (its minimum_write_chunk_size), so a large object whose segment fails within its first 4 KiB
 * is answered 500, and only a later failure cuts a 200 short. The same here: the first 4 KiB
 * are read before the answer starts.
 */
const FIRST_WRITE_BYTES = 4096;

export async function holdFirstWrite(read: ObjectRead): Promise<ObjectRead> {
  const source = read.body;
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const held: Buffer[] = [];
  let ended = false;
  try {
    for (let n = 0; n < FIRST_WRITE_BYTES; ) {
      const r = await it.next();
      if (r.done) {
        ended = true;
        break;
      }
      held.push(r.value);
      n += r.value.length;
    }
  } catch {
    source.destroy();
    // Swift's answer carries eventlet's traceback where it runs with debug, nothing otherwise.
    throw new NativeError(500, '');
  }
  async function* rest(): AsyncGenerator<Buffer> {
    yield* held;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  const body = Readable.from(rest());
  body.once('close', () => source.destroy());
  return { ...read, body };
}

/** DELETE `?multipart-manifest=delete`: the segments and the manifest, with a bulk-delete report. */
export async function deleteManifest(call: NativeCall<NativeOpOf<'DeleteManifest'>>, c: ContainerInfo): Promise<void> {
  const { who } = call;
  const report = await call.ctx.engine.deleteStaticLargeObject(refOf(c), call.op.path.object, (seg, obj) => decide({ who, container: seg, action: obj === undefined ? 'admin' : 'write-object', accountAcl: () => call.ctx.engine.accountAcl(seg.owner) }));
  sendDeleteReport(call.x, who, call.op.format, report);
}
