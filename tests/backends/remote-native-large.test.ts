// Large objects through the remote Swift backend against Coffer's native API: SLO uploads from a
// file (parallel segments) and from a stream, read back byte-identical, deleted with their
// segments, resumed after a cancel without resending finished segments, and flat memory for a
// ~200 MiB transfer each way.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteNativeBackend } from '../../src-main/backends/remote-native.js';
import { planSegments } from '../../src-main/backends/swift/slo-upload.js';
import { allEntries, bytes, containerName, expectCode, flakyProxy, md5, readAll, requests, startCoffer, tempFile, v1Backend, type Coffer } from './remote-native-setup.js';

const MiB = 1024 * 1024;
let coffer: Coffer;
let backend: RemoteNativeBackend;

beforeAll(async () => {
  coffer = await startCoffer();
  backend = v1Backend(coffer, { segmentThreshold: 3 * MiB, segmentSize: MiB, concurrency: 4, progressIntervalMs: 0 });
  await backend.connect();
});
afterAll(async () => {
  backend?.close();
  await coffer?.close();
});

/** The SLO's segment names as listed in `<container>_segments`. */
async function segmentsOf(container: string, prefix = ''): Promise<string[]> {
  try {
    return await allEntries(backend.listFolder(`${container}_segments`, { prefix, delimiter: '' }));
  } catch {
    return [];
  }
}

describe('static large objects', () => {
  it('names segments the python-swiftclient way', () => {
    expect(planSegments('a/b.bin', '1700000000.000000', 2500, 1000).map((s) => [s.name, s.start, s.length])).toEqual([
      ['a/b.bin/slo/1700000000.000000/2500/1000/00000000', 0, 1000],
      ['a/b.bin/slo/1700000000.000000/2500/1000/00000001', 1000, 1000],
      ['a/b.bin/slo/1700000000.000000/2500/1000/00000002', 2000, 500],
    ]);
  });

  it('uploads a file above the threshold as parallel segments, reads it back, deletes it with its segments', async () => {
    const c = containerName('slo');
    await backend.createContainer(c);
    const data = bytes(8 * MiB + 12345);
    const f = tempFile(data);
    const seen: number[] = [];
    try {
      const from = coffer.log.length;
      const up = await backend.upload(c, 'big/file.bin', { path: f.path }, { meta: { origin: 'test' }, onProgress: (n) => seen.push(n) });
      expect(up).toMatchObject({ size: data.length, contentType: 'application/octet-stream', meta: { origin: 'test' } });
      expect(requests(coffer, from, /PUT \S+_segments\/big\/file\.bin\/slo\/\S+ 201/).length).toBe(9);
      expect(requests(coffer, from, /PUT \S+multipart-manifest=put 201/).length).toBe(1);
      expect(seen.at(-1)).toBe(data.length);
      expect(seen.every((n, i) => i === 0 || n >= seen[i - 1]!)).toBe(true);
      // The SLO ETag: MD5 of the segments' MD5s (§10.1).
      const segMd5s = Array.from({ length: 9 }, (_, i) => md5(data.subarray(i * MiB, Math.min(data.length, (i + 1) * MiB)))).join('');
      expect(up.etag).toBe(md5(segMd5s));
      const segs = await segmentsOf(c);
      expect(segs).toHaveLength(9);
      expect(segs[0]).toMatch(new RegExp(`^big/file\\.bin/slo/\\d+\\.\\d{6}/${data.length}/${MiB}/00000000$`));
      const got = await backend.download(c, 'big/file.bin');
      expect(got.details.size).toBe(data.length);
      expect(md5(await readAll(got.body))).toBe(md5(data));
      const part = await backend.download(c, 'big/file.bin', { range: { start: MiB - 10, end: MiB + 9 } });
      expect((await readAll(part.body)).equals(data.subarray(MiB - 10, MiB + 10))).toBe(true);
      await backend.delete(c, 'big/file.bin');
      await expectCode(backend.head(c, 'big/file.bin'), 'NoSuchKey');
      expect(await segmentsOf(c)).toEqual([]);
    } finally {
      f.remove();
    }
  });

  it('uploads a stream above the threshold segment by segment', async () => {
    const c = containerName('slo-stream');
    await backend.createContainer(c);
    const data = bytes(5 * MiB + 7);
    const from = coffer.log.length;
    const pieces = Array.from({ length: Math.ceil(data.length / 100_000) }, (_, i) => data.subarray(i * 100_000, (i + 1) * 100_000));
    const up = await backend.upload(c, 'streamed', { stream: Readable.from(pieces), size: data.length });
    expect(up.size).toBe(data.length);
    expect(requests(coffer, from, /PUT \S+_segments\/streamed\/slo\/\S+ 201/).length).toBe(6);
    expect(md5(await readAll((await backend.download(c, 'streamed')).body))).toBe(md5(data));
    await expectCode(backend.upload(c, 'short', { stream: Readable.from([data.subarray(0, 4 * MiB)]), size: data.length }), 'IncompleteBody');
    await expectCode(backend.upload(c, 'long', { stream: Readable.from([data, Buffer.from('x')]), size: data.length }), 'InvalidArgument');
  });

  it('deletes SLOs with their segments in deleteMany, and cleans up the segments of a replaced SLO', async () => {
    const c = containerName('slo-many');
    await backend.createContainer(c);
    const data = bytes(4 * MiB);
    await backend.upload(c, 'x', { stream: Readable.from([data]), size: data.length });
    await backend.upload(c, 'y', { stream: Readable.from([data]), size: data.length });
    await backend.upload(c, 'small', { stream: Readable.from([Buffer.from('s')]), size: 1 });
    expect(await segmentsOf(c)).toHaveLength(8);
    // Replacing y with a small object leaves no segment of the old y behind.
    await backend.upload(c, 'y', { stream: Readable.from([Buffer.from('now small')]), size: 9 });
    expect((await segmentsOf(c)).every((s) => s.startsWith('x/'))).toBe(true);
    const r = await backend.deleteMany(c, ['x', 'y', 'small']);
    expect(r).toEqual({ deleted: expect.arrayContaining(['x', 'y', 'small']), errors: [] });
    expect(await segmentsOf(c)).toEqual([]);
    expect(await allEntries(backend.listFolder(c, { delimiter: '' }))).toEqual([]);
  });

  it('writes a name the caller knows to be new without looking for an old SLO first, unless its body is a one-shot stream', async () => {
    const c = containerName('slo-absent');
    await backend.createContainer(c);
    const small = bytes(5000);
    // HEADs of the object before its first byte is sent (an SLO's details are read after its manifest).
    const heads = (from: number, name: string) => {
      const lines = coffer.log.slice(from);
      const firstPut = lines.findIndex((l) => / PUT /.test(l));
      return lines.slice(0, firstPut < 0 ? lines.length : firstPut).filter((l) => new RegExp(`HEAD \\S+/${c}/${name} `).test(l));
    };
    let from = coffer.log.length;
    await backend.upload(c, 'new-bytes', { stream: Readable.from([]), size: small.length, bytes: small }, { absent: true });
    expect(heads(from, 'new-bytes')).toEqual([]);
    expect(requests(coffer, from, /PUT /)).toHaveLength(1);
    const big = bytes(4 * MiB);
    const f = tempFile(big);
    try {
      from = coffer.log.length;
      await backend.upload(c, 'new-file', { path: f.path }, { absent: true });
      expect(heads(from, 'new-file')).toEqual([]);
      expect(await segmentsOf(c, 'new-file/')).toHaveLength(4);
    } finally {
      f.remove();
    }
    // A stream can be sent once: the look (which also proves the token) still comes first.
    from = coffer.log.length;
    await backend.upload(c, 'new-stream', { stream: Readable.from([small]), size: small.length }, { absent: true });
    expect(heads(from, 'new-stream')).toHaveLength(1);
    // Without the hint, replacing the SLO removes its segments; with a wrong hint (an SLO made
    // since the plan looked) the new bytes are what is stored and the old segments are what it costs.
    from = coffer.log.length;
    await backend.upload(c, 'new-file', { stream: Readable.from([]), size: small.length, bytes: small });
    expect(heads(from, 'new-file')).toHaveLength(1);
    expect(await segmentsOf(c, 'new-file/')).toEqual([]);
    await backend.upload(c, 'raced', { stream: Readable.from([big]), size: big.length });
    await backend.upload(c, 'raced', { stream: Readable.from([]), size: small.length, bytes: small }, { absent: true });
    expect((await readAll((await backend.download(c, 'raced')).body)).equals(small)).toBe(true);
    expect(await segmentsOf(c, 'raced/')).toHaveLength(4);
  });

  it('resumes after a cancel without sending finished segments again', async () => {
    const c = containerName('resume');
    await backend.createContainer(c);
    const data = bytes(12 * MiB);
    const f = tempFile(data);
    const slow = v1Backend(coffer, { segmentThreshold: 3 * MiB, segmentSize: MiB, concurrency: 2, progressIntervalMs: 0 });
    try {
      const ac = new AbortController();
      const first = slow.upload(c, 'resumable', { path: f.path }, { signal: ac.signal, uploadKey: 'transfer-42', onProgress: (n) => n >= 5 * MiB && ac.abort() });
      await expectCode(first, 'Aborted');
      await expectCode(slow.head(c, 'resumable'), 'NoSuchKey');
      // A segment whose last bytes reached the server just before the cancel may still be
      // committing: wait until the listing stops changing.
      let done = -1;
      for (let now = (await segmentsOf(c, 'resumable/slo/transfer-42/')).length; now !== done; ) {
        done = now;
        await sleep(150);
        now = (await segmentsOf(c, 'resumable/slo/transfer-42/')).length;
      }
      // Segments 0 and 1 were answered before 2 and 3 started; later ones may or may not have been.
      expect(done).toBeGreaterThanOrEqual(2);
      expect(done).toBeLessThan(12);
      // A segment of the right size but other bytes (a changed file) is sent again.
      const tampered = `resumable/slo/transfer-42/${data.length}/${MiB}/00000000`;
      await backend.upload(`${c}_segments`, tampered, { stream: Readable.from([bytes(MiB)]), size: MiB });
      const from = coffer.log.length;
      const seen: number[] = [];
      const up = await slow.upload(c, 'resumable', { path: f.path }, { uploadKey: 'transfer-42', onProgress: (n) => seen.push(n) });
      const sent = requests(coffer, from, /PUT \S+_segments\/resumable\/slo\/transfer-42\/\S+ 201/);
      expect(sent.length).toBe(12 - done + 1);
      expect(sent.some((l) => l.includes('/00000000 '))).toBe(true);
      expect(seen.at(-1)).toBe(data.length);
      expect(up.size).toBe(data.length);
      expect(md5(await readAll((await slow.download(c, 'resumable')).body))).toBe(md5(data));
      // The same file again: every segment is found, only the manifest is written.
      const again = coffer.log.length;
      await slow.upload(c, 'resumable', { path: f.path }, { uploadKey: 'transfer-42' });
      expect(requests(coffer, again, /PUT \S+_segments\/\S+ 201/)).toEqual([]);
      expect(await segmentsOf(c, 'resumable/')).toHaveLength(12);
    } finally {
      slow.close();
      f.remove();
    }
  });

  it('retries a segment that failed (network reset, 503) on its own', async () => {
    const c = containerName('slo-retry');
    await backend.createContainer(c);
    const seen = new Map<string, number>();
    const p = await flakyProxy(coffer, (req) => {
      const m = /_segments\/.*\/(\d{8})$/.exec(req.url ?? '');
      if (req.method !== 'PUT' || !m) return 'pass';
      const n = (seen.get(m[1]!) ?? 0) + 1;
      seen.set(m[1]!, n);
      // Segment 1 is dropped mid-body once; segment 2 gets a 503 once.
      if (m[1] === '00000001' && n === 1) return 'reset';
      if (m[1] === '00000002' && n === 1) return '503';
      return 'pass';
    }, { segmentThreshold: 3 * MiB, segmentSize: MiB, progressIntervalMs: 0 });
    const data = bytes(4 * MiB);
    const f = tempFile(data);
    try {
      const progress: number[] = [];
      await p.backend.connect();
      const up = await p.backend.upload(c, 'retried', { path: f.path }, { onProgress: (n) => progress.push(n) });
      expect(up.size).toBe(data.length);
      expect([...seen.entries()].sort()).toEqual([['00000000', 1], ['00000001', 2], ['00000002', 2], ['00000003', 1]]);
      expect(progress.at(-1)).toBe(data.length);
      expect(progress.every((n, i) => i === 0 || n >= progress[i - 1]!)).toBe(true);
      expect(md5(await readAll((await backend.download(c, 'retried')).body))).toBe(md5(data));
    } finally {
      f.remove();
      await p.close();
    }
  });

  it('moves ~200 MiB up and down with flat memory', async () => {
    const c = containerName('memory');
    await backend.createContainer(c);
    // Default segmenting (64 MiB threshold, 32 MiB segments): the realistic case.
    const big = v1Backend(coffer);
    const total = 200 * MiB;
    const block = bytes(MiB);
    const upHash = createHash('md5');
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < total / MiB; i++) {
          const piece = Buffer.from(block);
          piece.writeUInt32BE(i, 0);
          upHash.update(piece);
          yield piece;
        }
      })(),
    );
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const up = await big.upload(c, 'huge', { stream: source, size: total });
      expect(up.size).toBe(total);
      const got = await big.download(c, 'huge');
      const downHash = createHash('md5');
      let n = 0;
      for await (const chunk of got.body) {
        downHash.update(chunk as Buffer);
        n += (chunk as Buffer).length;
      }
      expect(n).toBe(total);
      expect(downHash.digest('hex')).toBe(upHash.digest('hex'));
    } finally {
      clearInterval(sampler);
      big.close();
    }
    const growth = (peak - base) / MiB;
    expect(growth, `RSS grew by ${growth.toFixed(1)} MiB`).toBeLessThan(80);
    expect(await segmentsOf(c)).toHaveLength(7);
    await backend.delete(c, 'huge');
    expect(await segmentsOf(c)).toEqual([]);
  });
});
