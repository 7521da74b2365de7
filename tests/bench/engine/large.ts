/** Engine bench, section large: one 256 MiB object against raw FileHandle write + fsync, reads and in-memory MD5. */
import { createHash, randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../../../src-main/engine/index.js';
import { median, round } from '../stats.js';
import { ACCOUNT, drain, MiB, openEngine, type SectionContext } from './common.js';

export async function benchLarge({ dirFor, log, ratios }: SectionContext) {
  const TOTAL_MIB = 256;
  const CHUNK = MiB;
  const base = randomBytes(CHUNK);
  /** A fresh 1 MiB chunk each time (the base buffer with its first 8 bytes varied): a copy, so nothing downstream sees a reused buffer change. */
  const chunkAt = (i: number) => {
    const c = Buffer.allocUnsafe(CHUNK);
    base.copy(c);
    c.writeUInt32BE(i, 0);
    c.writeUInt32BE(i ^ 0x5a5a5a5a, 4);
    return c;
  };
  async function* source(): AsyncGenerator<Buffer> {
    for (let i = 0; i < TOTAL_MIB; i++) yield chunkAt(i);
  }
  const mibps = (ms: number) => round(TOTAL_MIB / (ms / 1000), 1);
  const dir = dirFor('large');
  const engine = await openEngine(dir);
  await engine.createContainer(ACCOUNT, 'large');
  const ref = Engine.ref(ACCOUNT, 'large');

  log('large: chunk source alone');
  let t = performance.now();
  let produced = 0;
  for await (const c of source()) produced += c.length;
  const sourceMs = performance.now() - t;

  log('large: in-memory MD5 (one 1 MiB buffer hashed 256 times: hashing alone, no chunk making)');
  t = performance.now();
  const h = createHash('md5');
  for (let i = 0; i < TOTAL_MIB; i++) h.update(base);
  h.digest('hex');
  const md5Ms = performance.now() - t;

  log('large: raw write + fsync');
  const rawPath = join(dir, 'raw.bin');
  t = performance.now();
  const fh = await open(rawPath, 'w');
  for (let i = 0; i < TOTAL_MIB; i++) {
    const c = chunkAt(i);
    let off = 0;
    while (off < c.length) off += (await fh.write(c, off, c.length - off)).bytesWritten;
  }
  await fh.sync();
  await fh.close();
  const rawWriteMs = performance.now() - t;

  log('large: engine put');
  t = performance.now();
  const info = await engine.putObject(ref, 'big.bin', source(), { size: TOTAL_MIB * CHUNK });
  const putMs = performance.now() - t;

  // Reads are short (page cache) and noisy: raw read and engine get alternate, 3 runs each, median kept.
  const rawReadOnce = async () => {
    const s0 = performance.now();
    const rh = await open(rawPath, 'r');
    const buf = Buffer.allocUnsafe(CHUNK);
    let n = 0;
    for (;;) {
      const { bytesRead } = await rh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    await rh.close();
    return { ms: performance.now() - s0, n };
  };
  const getOnce = async () => {
    const s0 = performance.now();
    const { body } = await engine.getObject(ref, 'big.bin');
    const n = await drain(body);
    return { ms: performance.now() - s0, n };
  };
  /** Node's own fs stream over the raw file (fresh buffer per chunk): the floor for any stream-based read. */
  const rawStreamOnce = async (highWaterMark: number) => {
    const s0 = performance.now();
    const rh = await open(rawPath, 'r');
    await drain(rh.createReadStream({ highWaterMark }));
    return performance.now() - s0;
  };
  const rawReadRuns: number[] = [];
  const rawStream256kRuns: number[] = [];
  const rawStream1mRuns: number[] = [];
  const getRuns: number[] = [];
  let rawRead = 0;
  let got = 0;
  for (let r = 0; r < 3; r++) {
    log(`large: raw read / engine get, run ${r + 1} of 3`);
    const a = await rawReadOnce();
    rawReadRuns.push(a.ms);
    rawRead = a.n;
    const b = await getOnce();
    getRuns.push(b.ms);
    got = b.n;
    rawStream256kRuns.push(await rawStreamOnce(256 * 1024));
    rawStream1mRuns.push(await rawStreamOnce(MiB));
  }
  const rawReadMs = median(rawReadRuns);
  const getMs = median(getRuns);

  log('large: engine get + MD5 of what is read (what a verifying client does)');
  t = performance.now();
  const h2 = createHash('md5');
  const { body: body2 } = await engine.getObject(ref, 'big.bin');
  for await (const c of body2) h2.update(c);
  const getMd5 = h2.digest('hex');
  const getHashMs = performance.now() - t;
  await engine.close();

  const putMiBps = mibps(putMs);
  const rawWriteMiBps = mibps(rawWriteMs);
  const md5MiBps = mibps(md5Ms);
  // What writing and hashing one after another (no overlap) would give at best.
  const serialBoundMiBps = round(1 / (1 / rawWriteMiBps + 1 / md5MiBps), 1);
  // A put must both hash and write every byte, so its ceiling is the slower of the two.
  ratios.add('large.put engine/min(raw write, MD5) MiB/s', putMiBps, Math.min(rawWriteMiBps, md5MiBps), '>= 0.8');
  ratios.add('large.put engine/raw write MiB/s', putMiBps, rawWriteMiBps, 'informational');
  ratios.add('large.get engine/raw read MiB/s', mibps(getMs), mibps(rawReadMs), 'informational',
    { note: 'raw read copies into one reused buffer; any stream that hands out fresh buffers is far below it' });
  ratios.add('large.get engine/fs ReadStream 256 KiB MiB/s', mibps(getMs), mibps(median(rawStream256kRuns)), '>= 0.8',
    { note: 'the engine streams 1 MiB chunks through a Readable; ~1 means its get costs what Node streaming itself costs' });
  ratios.add('large.put engine/serial(write+md5) bound', putMiBps, serialBoundMiBps, 'informational',
    { note: '> 1 would mean hashing overlaps the writes; ~1 means they run one after the other' });
  return {
    mib: TOTAL_MIB,
    chunkBytes: CHUNK,
    note: 'reads are served from the page cache (dropping it is not possible here); writes end with fsync; raw write and engine put both include making the chunks (see sourceMiBps); reads: median of 3 alternating runs; rawRead = FileHandle.read into one reused 1 MiB buffer, rawFsStream* = fs ReadStream (fresh buffer per chunk; the engine streams 256 KiB chunks)',
    sourceMiBps: mibps(sourceMs),
    sourceBytes: produced,
    md5InMemoryMiBps: md5MiBps,
    rawWriteFsyncMiBps: rawWriteMiBps,
    rawReadMiBps: mibps(rawReadMs),
    rawReadRunsMiBps: rawReadRuns.map(mibps),
    rawFsStream256KiBMiBps: mibps(median(rawStream256kRuns)),
    rawFsStream1MiBMiBps: mibps(median(rawStream1mRuns)),
    putMiBps,
    getMiBps: mibps(getMs),
    getRunsMiBps: getRuns.map(mibps),
    getWithMd5MiBps: mibps(getHashMs),
    serialWriteThenMd5BoundMiBps: serialBoundMiBps,
    etagMatchesGet: info.etag === getMd5,
    bytesRawRead: rawRead,
    bytesGot: got,
  };
}
