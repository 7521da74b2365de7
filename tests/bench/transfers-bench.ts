/**
 * Transfers benchmark (`BENCH=transfers npm run bench`): 1,000 files of 64 KiB and one 1 GiB file
 * uploaded through the transfer service (plan, start, wait, as the app does) to the local store
 * and to the same embedded server over each API (remote S3 and remote Swift connections pointing
 * back at it), next to the server's own raw PUT rate for the same bytes measured in this run
 * (plain HTTP PUTs with a token on the native API, same concurrency), and the peak RSS of this
 * process, which is what the main process is when it hosts the services.
 *
 * Env: BENCH_TRANSFER_FILES (default 1000), BENCH_TRANSFER_LARGE_MIB (default 1024) to scale down.
 * Defaults are the real run; fsync is on (the store's defaults). One JSON object on stdout.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { createClient } from '../../src-shared/rpc/client.js';
import { progressLog, round } from './stats.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const FILES = Number(process.env.BENCH_TRANSFER_FILES ?? 1000);
const LARGE = Number(process.env.BENCH_TRANSFER_LARGE_MIB ?? 1024) * MiB;
const CONCURRENCY = 3; // the queue's default

const log = progressLog('transfers-bench');

/** Peak RSS between start() and stop(), sampled every 50 ms. */
function rssPeak() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return () => {
    clearInterval(timer);
    return round(Math.max(peak, process.memoryUsage().rss) / MiB, 1);
  };
}

function makeInputs(root: string): { small: string; large: string } {
  const small = join(root, 'small');
  mkdirSync(small);
  for (let i = 0; i < FILES; i++) writeFileSync(join(small, `f${String(i).padStart(5, '0')}.bin`), randomBytes(64 * KiB));
  const large = join(root, 'large.bin');
  const fd = openSync(large, 'w');
  const block = randomBytes(MiB);
  for (let i = 0; i < LARGE / MiB; i++) {
    block.writeUInt32BE(i, 0); // every MiB differs
    writeSync(fd, block);
  }
  closeSync(fd);
  return { small, large };
}

async function uploadThroughService(ctx: AppContext, account: string, container: string, paths: string[]) {
  const api = createClient(ctx.rpc.asTransport()).services;
  const t0 = performance.now();
  const plan = await api.transfers.planUpload({ account, container, prefix: '', paths });
  const { items } = await api.transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
  const ids = new Set(items.map((i) => i.id));
  for (;;) {
    const mine = (await api.transfers.list({})).items.filter((i) => ids.has(i.id));
    const open = mine.filter((i) => i.state === 'queued' || i.state === 'running');
    if (open.length === 0) {
      const failed = mine.filter((i) => i.state !== 'done');
      if (failed.length) throw new Error(`${failed.length} transfers failed: ${failed[0]!.error}`);
      if (!mine.every((i) => i.verified)) throw new Error('an upload was not verified');
      break;
    }
    await sleep(20);
  }
  const seconds = (performance.now() - t0) / 1000;
  await api.transfers.clearFinished({});
  return seconds;
}

/** The server's own PUT rate: plain HTTP PUTs on the native API with a token, `concurrency` at a time. */
async function rawPut(ctx: AppContext, container: string, files: string[], concurrency: number): Promise<number> {
  const user = ctx.localAccount;
  const swift = user.swiftKeys[0]!;
  const auth = await fetch(`${ctx.server.url}/auth/1.0`, { headers: { 'X-Auth-User': swift.user, 'X-Auth-Key': swift.secretKey } });
  const token = auth.headers.get('x-auth-token')!;
  const storage = auth.headers.get('x-storage-url')!;
  await fetch(`${storage}/${container}`, { method: 'PUT', headers: { 'X-Auth-Token': token } });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const put = (path: string, i: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${storage}/${container}/o${i}`, { method: 'PUT', agent, headers: { 'X-Auth-Token': token, 'Content-Length': statSync(path).size } }, (res) => {
        res.resume();
        res.once('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`PUT ${res.statusCode}`))));
      });
      req.once('error', reject);
      createReadStream(path).pipe(req);
    });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < files.length) {
      const i = next++;
      await put(files[i]!, i);
    }
  }));
  agent.destroy();
  return (performance.now() - t0) / 1000;
}

const root = mkdtempSync(join(os.tmpdir(), 'coffer-transfers-bench-'));
let ctx: AppContext | undefined;
try {
  log(`writing inputs: ${FILES} x 64 KiB and ${LARGE / MiB} MiB`);
  const inputs = makeInputs(root);
  const smallFiles = Array.from({ length: FILES }, (_, i) => join(inputs.small, `f${String(i).padStart(5, '0')}.bin`));
  ctx = await createAppContext({ dataDir: join(root, 'store'), port: 0 });
  const api = createClient(ctx.rpc.asTransport()).services;
  const [user] = await api.localStore.users({});
  const s3 = await api.accounts.add({ name: 'self S3', config: { kind: 's3', endpoint: ctx.server.url, accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey } });
  const swift = await api.accounts.add({ name: 'self Swift', config: { kind: 'swift', authUrl: `${ctx.server.url}/auth/1.0`, auth: { type: 'v1', user: user!.swiftKeys[0]!.user, key: user!.swiftKeys[0]!.secretKey } } });

  log('raw PUT baseline');
  const rawSmallS = await rawPut(ctx, 'raw-small', smallFiles, CONCURRENCY);
  const rawLargeS = await rawPut(ctx, 'raw-large', [inputs.large], 1);
  const raw = { smallFilesPerSec: round(FILES / rawSmallS, 1), largeMiBps: round(LARGE / MiB / rawLargeS, 1) };
  log(`raw: ${JSON.stringify(raw)}`);

  const targets: Record<string, unknown> = {};
  const ratios: { name: string; value: number; target: string; note?: string }[] = [];
  for (const [label, account] of [['local', 'local'], ['s3', s3.id], ['swift', swift.id]] as const) {
    await api.browse.createContainer({ account, container: `bench-${label}` });
    log(`${label}: ${FILES} small files`);
    let stop = rssPeak();
    const smallS = await uploadThroughService(ctx, account, `bench-${label}`, [inputs.small]);
    const smallPeak = stop();
    log(`${label}: ${LARGE / MiB} MiB file`);
    stop = rssPeak();
    const largeS = await uploadThroughService(ctx, account, `bench-${label}`, [inputs.large]);
    const largePeak = stop();
    const figures = { smallFilesPerSec: round(FILES / smallS, 1), largeMiBps: round(LARGE / MiB / largeS, 1), peakRssMiBSmall: smallPeak, peakRssMiBLarge: largePeak };
    targets[label] = figures;
    log(`${label}: ${JSON.stringify(figures)}`);
    ratios.push({ name: `${label} small files/s vs raw PUT`, value: round(figures.smallFilesPerSec / raw.smallFilesPerSec), target: 'informational', note: 'transfer service incl. planning, MD5 verification and the queue' });
    ratios.push({ name: `${label} large MiB/s vs raw PUT`, value: round(figures.largeMiBps / raw.largeMiBps), target: 'informational' });
  }
  process.stdout.write(`${JSON.stringify({ files: FILES, largeMiB: LARGE / MiB, concurrency: CONCURRENCY, raw, targets, ratios }, null, 2)}\n`);
} finally {
  await ctx?.close();
  rmSync(root, { recursive: true, force: true });
}
