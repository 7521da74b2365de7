/**
 * Crash through both APIs: 32 clients upload (native PUT, S3 PUT, S3 aws-chunked, S3 multipart,
 * native SLO) while the real `coffer serve` is SIGKILLed at a random moment; several rounds on one
 * data directory. After each restart every acknowledged object reads back byte-identical, nothing
 * that was not acknowledged shows up other than complete, the counters equal a recount, and the
 * data directory holds no temp file and no unreferenced blob. Engine-level crashes are covered in
 * tests/engine/crash.test.ts; this test goes through the protocol front ends and the CLI server.
 * The seed is printed; rerun with RELIABILITY_CRASH_SEED=<seed> (timing still varies).
 */
import { rmSync } from 'node:fs';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { expect, it } from 'vitest';
import { ALICE, prng, seedFrom, seedStore, serve, swiftLogin, tempDir, type Served } from './served.js';
import { auditStore } from './store-audit.js';
import { md5, s3ClientFor, upload, UPLOAD_KINDS, type Attempt, type Uploader } from './upload-kinds.js';

const SEED = seedFrom('RELIABILITY_CRASH_SEED');
console.log(`reliability crash seed: ${SEED} (rerun with RELIABILITY_CRASH_SEED=${SEED})`);
const CLIENTS = 32;
const ROUNDS = 3;
const BUCKET = 'crash';

interface Listed {
  name: string;
  bytes: number;
}

async function nativeListing(storageUrl: string, token: string): Promise<Listed[]> {
  const out: Listed[] = [];
  let marker = '';
  for (;;) {
    const res = await fetch(`${storageUrl}/${BUCKET}?format=json&limit=1000&marker=${encodeURIComponent(marker)}`, { headers: { 'X-Auth-Token': token } });
    const page = (await res.json()) as { name: string; bytes: number }[];
    if (page.length === 0) return out;
    out.push(...page.map((p) => ({ name: p.name, bytes: p.bytes })));
    marker = page.at(-1)!.name;
  }
}

/** Runs the clients until the server dies; resolves with the errors seen before the kill was decided. */
async function loadUntilKilled(server: Served, attempts: Map<string, Attempt>, round: number, rand: () => number): Promise<{ early: string[]; killedAfterAcks: number }> {
  const { storageUrl, token } = await swiftLogin(server.url, ALICE);
  const s3 = s3ClientFor(server.url, ALICE);
  let killing = false;
  const early: string[] = [];
  let acks = 0;
  const u: Uploader = {
    bucket: BUCKET,
    storageUrl,
    token,
    s3,
    begin(a) {
      const attempt = { ...a, acked: false };
      if (attempts.has(a.name)) throw new Error(`name reused: ${a.name}`);
      attempts.set(a.name, attempt);
      return attempt;
    },
  };
  // Kill once enough work was acknowledged, after a random extra delay, so rounds die at different moments.
  const ackTarget = 10 + Math.floor(rand() * 40);
  let armed = false;
  const armKill = () => {
    if (armed || acks < ackTarget) return;
    armed = true;
    setTimeout(() => {
      killing = true;
      void server.kill();
    }, Math.floor(rand() * 700));
  };
  const client = async (c: number) => {
    const r = prng((SEED ^ (round << 8) ^ c) >>> 0);
    for (let seq = 0; !killing; seq++) {
      const kind = UPLOAD_KINDS[Math.floor(r() * UPLOAD_KINDS.length)]!;
      try {
        await upload(u, kind, `r${round}-c${c}-${seq}-${kind}`, r);
        acks++;
        armKill();
      } catch (err) {
        if (!killing) early.push(`${kind}: ${(err as Error).message}`);
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  s3.destroy();
  return { early, killedAfterAcks: ackTarget };
}

it('keeps every acknowledged upload, and only complete ones, across SIGKILLs of the server', async () => {
  const dataDir = tempDir('crash');
  const rand = prng(SEED);
  const attempts = new Map<string, Attempt>();
  const summary: string[] = [];
  try {
    await seedStore(dataDir, [ALICE], [{ account: ALICE.account, name: BUCKET }]);
    // Each round's restarted server verifies the store, then is the next round's victim.
    let server = await serve(dataDir);
    for (let round = 0; round < ROUNDS; round++) {
      const { early, killedAfterAcks } = await loadUntilKilled(server, attempts, round, rand);
      expect((await server.exited).signal).toBe('SIGKILL');
      expect(early, 'uploads that failed before the server was killed').toEqual([]);

      // Restart (recovery runs in the server) and read everything back through both APIs.
      server = await serve(dataDir);
      const { storageUrl, token } = await swiftLogin(server.url, ALICE);
      const listed = await nativeListing(storageUrl, token);
      const names = new Set(listed.map((l) => l.name));
      const problems: string[] = [];
      for (const a of attempts.values()) if (a.acked && !names.has(a.name)) problems.push(`acknowledged ${a.kind} ${a.name} is missing`);
      await Promise.all(
        listed.map(async (l) => {
          const a = attempts.get(l.name);
          if (!a) return problems.push(`listed ${l.name} was never written`);
          const res = await fetch(`${storageUrl}/${BUCKET}/${encodeURIComponent(l.name)}`, { headers: { 'X-Auth-Token': token } });
          const body = Buffer.from(await res.arrayBuffer());
          if (res.status !== 200) return problems.push(`GET ${l.name}: ${res.status}`);
          if (body.length !== a.size || md5(body) !== a.md5) problems.push(`${a.acked ? 'acknowledged' : 'unacknowledged'} ${a.kind} ${l.name}: ${body.length} of ${a.size} bytes, md5 ${md5(body) === a.md5 ? 'ok' : 'differs'}`);
          if (l.bytes !== a.size) problems.push(`${l.name}: listed with ${l.bytes} bytes, not ${a.size}`);
        }),
      );
      // The compatible API lists the same objects.
      const s3 = s3ClientFor(server.url, ALICE);
      const s3Names: string[] = [];
      let next: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: next }));
        s3Names.push(...(page.Contents ?? []).map((o) => o.Key!));
        next = page.NextContinuationToken;
      } while (next);
      s3.destroy();
      expect(s3Names, 'S3 listing equals the native listing').toEqual(listed.map((l) => l.name));

      // Counters as the native API reports them, against the listing. An SLO manifest counts the
      // bytes of its manifest document, as Swift's do (its segments are objects of their own).
      const slo = new Set([...attempts.values()].filter((a) => a.kind === 'native-slo').map((a) => a.name));
      const manifestBytes = async (name: string) => {
        const r = await fetch(`${storageUrl}/${BUCKET}/${encodeURIComponent(name)}?multipart-manifest=get`, { headers: { 'X-Auth-Token': token } });
        return (await r.arrayBuffer()).byteLength;
      };
      let bytes = 0;
      for (const l of listed) bytes += slo.has(l.name) ? await manifestBytes(l.name) : l.bytes;
      const recount = { objects: listed.length, bytes };
      const head = await fetch(`${storageUrl}/${BUCKET}`, { method: 'HEAD', headers: { 'X-Auth-Token': token } });
      const acct = await fetch(storageUrl, { method: 'HEAD', headers: { 'X-Auth-Token': token } });
      expect({ objects: Number(head.headers.get('x-container-object-count')), bytes: Number(head.headers.get('x-container-bytes-used')) }, 'container counters').toEqual(recount);
      expect({ objects: Number(acct.headers.get('x-account-object-count')), bytes: Number(acct.headers.get('x-account-bytes-used')) }, 'account counters').toEqual(recount);

      const acked = [...attempts.values()].filter((a) => a.acked).length;
      summary.push(`round ${round}: killed after >=${killedAfterAcks} acks; ${attempts.size} attempts, ${acked} acknowledged, ${listed.length} listed`);
      expect(problems, `round ${round} (seed ${SEED})`).toEqual([]);

      // What recovery left (read from a second process while the restarted server idles; LMDB
      // allows that, as the admin commands do): no temp files, no unreferenced or missing blobs, exact counters.
      const audit = await auditStore(dataDir);
      expect(audit.problems, `data directory after round ${round} (seed ${SEED})`).toEqual([]);
    }
    await server.stop();
    console.log(summary.join('\n'));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 110_000);
