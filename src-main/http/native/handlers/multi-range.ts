import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CofferError } from '../../../../src-shared/errors.js';
import type { ByteRange, ContainerInfo, ObjectInfo, RangeRequest } from '../../../engine/index.js';
import type { HeaderValues } from '../../common/exchange.js';
import { readOptionsFor } from '../../common/plain-read.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, type NativeCall } from '../respond.js';

/** Swift's limits on one request's ranges (swob: RFC 7233 6.1's "egregious" range sets). */
const MAX_RANGES = 50;
const MAX_RANGE_OVERLAPS = 2;
const MAX_NONASCENDING_RANGES = 8;

/**
 * The satisfiable ranges of a multi-range request, as Swift's `ranges_for_length` picks them:
 * unsatisfiable ones dropped; none left, or an egregious set (more than 50, more than 2
 * overlapping, 8 or more out of order), is an empty list, which is answered 416.
 */
export function satisfiable(ranges: RangeRequest[], size: number): ByteRange[] {
  const out: ByteRange[] = [];
  for (const r of ranges) {
    if ('suffix' in r) {
      if (r.suffix > 0 && size > 0) out.push({ start: Math.max(0, size - r.suffix), end: size - 1 });
    } else if (r.start < size) out.push({ start: r.start, end: Math.min(r.end ?? size - 1, size - 1) });
  }
  if (out.length > MAX_RANGES) return [];
  let overlaps = 0;
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const [a, b] = [out[i]!, out[j]!];
      // Half-open [start, end + 1) as Swift compares them.
      const [s1, e1, s2, e2] = [a.start, a.end + 1, b.start, b.end + 1];
      if ((s1 < s2 && s2 < e1) || (s1 < e2 && e2 < e1) || (s2 < s1 && s1 < e2) || (s2 < e1 && e1 < e2)) {
        if (++overlaps > MAX_RANGE_OVERLAPS) return [];
      }
    }
  }
  const ascending = out.every((r, i) => i === 0 || out[i - 1]!.start < r.start || (out[i - 1]!.start === r.start && out[i - 1]!.end <= r.end));
  if (!ascending && out.length >= MAX_NONASCENDING_RANGES) return [];
  return out;
}

/**
 * A GET of several ranges: 206 `multipart/byteranges` with one part per range (each with the
 * object's Content-Type and its Content-Range), as Swift answers it; a single satisfiable range
 * is an ordinary 206. Each part is its own ranged read of the object.
 */
export async function sendRanges(call: NativeCall<NativeOpOf<'GetObject'>>, c: ContainerInfo, info: ObjectInfo, headers: HeaderValues, ranges: RangeRequest[], versionId?: string): Promise<void> {
  const { x, ctx } = call;
  const parts = satisfiable(ranges, info.size);
  if (parts.length === 0) throw new CofferError('InvalidRange', 'The requested range is not satisfiable', { size: info.size });
  const ref = { tenant: c.tenant, container: c.name };
  const name = call.op.path.object;
  const read = (p: ByteRange) => ctx.engine.getObject(ref, name, readOptionsFor(call.who, { start: p.start, end: p.end }, versionId));
  if (parts.length === 1) {
    const one = await read(parts[0]!);
    const { start, end } = parts[0]!;
    return x.stream(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${info.size}` }, one, baseHeaders(x), end - start + 1);
  }
  const boundary = randomBytes(16).toString('hex');
  const type = String(headers['Content-Type'] ?? 'application/octet-stream');
  const head = (p: ByteRange) => Buffer.from(`--${boundary}\r\nContent-Type: ${type}\r\nContent-Range: bytes ${p.start}-${p.end}/${info.size}\r\n\r\n`);
  const tail = Buffer.from(`--${boundary}--`);
  const length = parts.reduce((n, p) => n + head(p).length + (p.end - p.start + 1) + 2, tail.length);
  async function* body() {
    for (const p of parts) {
      yield head(p);
      const part = await read(p);
      for await (const chunk of part.body) yield chunk as Buffer;
      yield Buffer.from('\r\n');
    }
    yield tail;
  }
  const multipart = { ...headers, 'Content-Type': `multipart/byteranges;boundary=${boundary}` };
  await x.stream(206, multipart, { body: Readable.from(body()) }, baseHeaders(x), length);
}
