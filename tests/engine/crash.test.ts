/**
 * Crash safety: a child process (fixtures/crash-writer.ts) writes continuously and concurrently
 * (inline and file bodies, overwrites, deletes, multipart uploads) and is killed with SIGKILL at a
 * random moment, several rounds on the same data directory. After each kill the engine is opened
 * here (which runs recovery) and the store must hold exactly what was acknowledged, with each
 * in-flight write either absent or complete, no leftover files and exact usage counters.
 * The seed is printed; rerun with CRASH_SEED=<seed> (timing still varies from run to run).
 */
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { multipartEtag } from '../../src-main/engine/blobs/hashing.js';
import type { EngineContext } from '../../src-main/engine/context.js';
import { Engine } from '../../src-main/engine/engine.js';
import { roundUp4k, type ObjectRecord } from '../../src-main/engine/types.js';
import { bodyFor, md5, NAMES, type Line } from './fixtures/crash-writer.js';
import { readAll, tempDir } from './helpers.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const WRITER = join(HERE, 'fixtures', 'crash-writer.ts');
const ACCOUNT = 'crash$writer';
const CONTAINER = 'crash';
const ROUNDS = 5;
const OPTIONS = { minPartSize: 1024, expirySweepMs: 0 };

const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : (Date.now() ^ (process.pid << 12)) >>> 0;
console.log(`crash seed: ${SEED} (rerun with CRASH_SEED=${SEED})`);

let seedState = SEED >>> 0 || 1;
function rand(): number {
  seedState ^= seedState << 13;
  seedState ^= seedState >>> 17;
  seedState ^= seedState << 5;
  return (seedState >>> 0) / 4294967296;
}

/** What a name holds: nothing, or the complete body of one generation. */
type State = { exists: false } | { exists: true; gen: number; size: number; md5: string; etag: string };
const ABSENT: State = { exists: false };

const describeState = (s: State) => (s.exists ? `gen ${s.gen} (${s.size} B, etag ${s.etag})` : 'absent');

/** The state a begun operation leads to once complete. */
function outcomeOf(begin: Line): State {
  if (begin.op === 'delete') return ABSENT;
  const body = bodyFor(begin.name, begin.gen, begin.size!);
  const m = md5(body);
  // The child's line and our recomputation must agree, or the test itself is broken.
  if (m !== begin.md5) throw new Error(`body of ${begin.name} gen ${begin.gen} does not recompute (${m} vs ${begin.md5})`);
  if (begin.op === 'put') return { exists: true, gen: begin.gen, size: begin.size!, md5: m, etag: m };
  let off = 0;
  const partMd5s = begin.parts!.map((n) => {
    const p = md5(body.subarray(off, off + n));
    off += n;
    return p;
  });
  return { exists: true, gen: begin.gen, size: begin.size!, md5: m, etag: multipartEtag(partMd5s) };
}

interface RoundResult {
  lines: Line[];
  killedAfterMs: number;
}

/** Runs the writer until `killAfterMs` after it reported ready, then SIGKILLs it. */
function runWriter(dir: string, firstGen: number, seed: number, killAfterMs: number): Promise<RoundResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, ACCOUNT, CONTAINER, String(firstGen), String(seed)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Line[] = [];
    let pending = '';
    let stderr = '';
    let killed = false;
    let timer: NodeJS.Timeout | undefined;
    const startup = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`writer did not become ready in 30 s; stderr:\n${stderr}`));
    }, 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      pending += text;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const raw = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        const line = JSON.parse(raw) as Line;
        if (line.ready) {
          clearTimeout(startup);
          timer = setTimeout(() => {
            killed = true;
            child.kill('SIGKILL');
          }, killAfterMs);
        } else lines.push(line);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (t: string) => (stderr += t));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(startup);
      clearTimeout(timer);
      // A partial last line (cut by the kill) is ignored: writeSync makes whole lines the norm.
      if (!killed || signal !== 'SIGKILL') {
        reject(new Error(`writer exited on its own (code ${code}, signal ${signal}); stderr:\n${stderr}`));
        return;
      }
      resolvePromise({ lines, killedAfterMs: killAfterMs });
    });
  });
}

function ctxOf(engine: Engine): EngineContext {
  return (engine as unknown as { ctx: EngineContext }).ctx;
}

/** Every blob file under blobs/xx/. */
function blobFiles(dir: string): Set<string> {
  const out = new Set<string>();
  for (const sub of readdirSync(join(dir, 'blobs'))) for (const f of readdirSync(join(dir, 'blobs', sub))) out.add(f);
  return out;
}

it('keeps exactly the acknowledged writes across repeated SIGKILLs', async () => {
  const started = performance.now();
  const dir = tempDir('coffer-crash-');
  try {
    const setup = await Engine.open(dir, OPTIONS);
    await setup.createAccount({ id: ACCOUNT, displayName: 'Crash writer' });
    await setup.createContainer(ACCOUNT, CONTAINER);
    await setup.close();
    const ref = Engine.ref(ACCOUNT, CONTAINER);

    const state = new Map<string, State>(NAMES.map((n) => [n, ABSENT]));
    const summary: string[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      const killAfter = 300 + Math.floor(rand() * 1201);
      const { lines } = await runWriter(dir, (round + 1) * 1_000_000, Math.floor(rand() * 2 ** 31) + 1, killAfter);

      // Replay the protocol: acknowledged outcomes become the expected state; what began but was
      // not acknowledged is in flight (at most one operation per name).
      const inflight = new Map<string, Line>();
      const counts: Record<string, number> = { put: 0, mpu: 0, delete: 0 };
      for (const line of lines) {
        if (!NAMES.includes(line.name)) throw new Error(`unexpected name ${line.name}`);
        if (line.ev === 'begin') {
          expect(inflight.has(line.name), `two operations in flight on ${line.name}`).toBe(false);
          inflight.set(line.name, line);
        } else {
          const begin = inflight.get(line.name);
          expect(begin?.gen, `ack without begin: ${JSON.stringify(line)}`).toBe(line.gen);
          const outcome = outcomeOf(begin!);
          if (outcome.exists) expect(line.etag, `etag acknowledged for ${line.name} gen ${line.gen}`).toBe(outcome.etag);
          state.set(line.name, outcome);
          inflight.delete(line.name);
          counts[line.op]!++;
        }
      }

      const engine = await Engine.open(dir, OPTIONS);
      const ctx = ctxOf(engine);
      const problems: string[] = [];
      try {
        // Recovery cleared every unfinished write and release.
        expect(readdirSync(join(dir, 'tmp')), 'tmp/ after recovery').toEqual([]);
        expect([...ctx.store.intents.getKeys({})], 'intents after recovery').toEqual([]);

        // Each name: the last acknowledged state, or (when an operation was in flight) its complete outcome.
        const listed = new Map(
          engine
            .listObjects(ref, { limit: 10000 })
            .entries.flatMap((e) => (e.kind === 'object' ? [[e.name, e.object] as const] : [])),
        );
        for (const name of listed.keys()) if (!state.has(name)) problems.push(`listed name ${name} was never written`);
        for (const name of NAMES) {
          const allowed = [state.get(name)!];
          const begun = inflight.get(name);
          if (begun) allowed.push(outcomeOf(begun));
          let actual: State = ABSENT;
          let info;
          try {
            info = engine.headObject(ref, name);
          } catch (e) {
            if ((e as { code?: string }).code !== 'NoSuchKey') throw e;
          }
          if (info) {
            const data = await readAll((await engine.getObject(ref, name)).body);
            const m = md5(data);
            if (data.length !== info.size) problems.push(`${name}: read ${data.length} bytes of ${info.size}`);
            if (!info.etag.includes('-') && m !== info.etag) problems.push(`${name}: bytes md5 ${m} differs from etag ${info.etag} (partial body?)`);
            const match = allowed.find((s) => s.exists && s.md5 === m && s.size === data.length && s.etag === info.etag);
            actual = match ?? { exists: true, gen: -1, size: data.length, md5: m, etag: info.etag };
          }
          if (!allowed.some((s) => (s.exists ? actual.exists && s.gen === actual.gen : !actual.exists))) {
            problems.push(`${name}: found ${describeState(actual)}, expected ${allowed.map(describeState).join(' or ')}${begun ? ` (in flight: ${begun.op})` : ''}`);
          }
          if (actual.exists !== listed.has(name)) problems.push(`${name}: ${actual.exists ? 'exists but is not listed' : 'listed but absent'}`);
          if (actual.exists && listed.get(name)?.etag !== actual.etag) problems.push(`${name}: listing etag differs`);
          if (actual.exists && actual.gen >= 0) state.set(name, actual);
          else if (!actual.exists) state.set(name, ABSENT);
        }

        // Usage counters equal a recount of the listing (the container and its account alike).
        // The container is unversioned: its current objects are all its objects.
        const recount = { objects: 0, bytes: 0, bytesActual: 0, current: 0 };
        for (const o of listed.values()) {
          recount.objects++;
          recount.current++;
          recount.bytes += o.size;
          recount.bytesActual += roundUp4k(o.size);
        }
        const usage = engine.getContainer(ref).usage;
        if (JSON.stringify(usage) !== JSON.stringify(recount)) problems.push(`container usage ${JSON.stringify(usage)} != recount ${JSON.stringify(recount)}`);
        const acct = engine.getAccount(ACCOUNT).usage;
        const acctUsage = { objects: acct.objects, bytes: acct.bytes, bytesActual: acct.bytesActual };
        const { current: _current, ...acctRecount } = recount;
        if (JSON.stringify(acctUsage) !== JSON.stringify(acctRecount)) problems.push(`account usage ${JSON.stringify(acctUsage)} != recount ${JSON.stringify(acctRecount)}`);

        // Blob files are exactly the blobs the index references (current objects, older versions,
        // parts of unfinished uploads): none leaked, none missing. Same for inline entries.
        const referenced = new Set<string>();
        const inlineRefs = new Set<string>();
        const noteData = (rec: ObjectRecord) => {
          if ('segments' in rec.data) for (const s of rec.data.segments) referenced.add(s.blob);
          else if ('inline' in rec.data) inlineRefs.add(rec.data.inline);
        };
        for (const { value } of ctx.store.objects.getRange({})) noteData(value);
        for (const { value } of ctx.store.versions.getRange({})) noteData(value);
        for (const { value } of ctx.store.parts.getRange({})) referenced.add(value.blob);
        const files = blobFiles(dir);
        const leaked = [...files].filter((f) => !referenced.has(f));
        const missing = [...referenced].filter((f) => !files.has(f));
        if (leaked.length) problems.push(`${leaked.length} blob file(s) referenced by nothing: ${leaked.slice(0, 3).join(', ')}`);
        if (missing.length) problems.push(`${missing.length} referenced blob file(s) missing: ${missing.slice(0, 3).join(', ')}`);
        const inlineKeys = new Set([...ctx.store.inline.getKeys({})].map(String));
        const strayInline = [...inlineKeys].filter((k) => !inlineRefs.has(k));
        const missingInline = [...inlineRefs].filter((k) => !inlineKeys.has(k));
        if (strayInline.length) problems.push(`${strayInline.length} inline entr(ies) referenced by nothing`);
        if (missingInline.length) problems.push(`${missingInline.length} referenced inline entr(ies) missing`);

        const uploads = engine.listUploads(ref).uploads;
        summary.push(
          `round ${round}: killed ${killAfter} ms after ready; acked put ${counts.put}, mpu ${counts.mpu}, delete ${counts.delete}; ` +
            `in flight ${[...inflight.values()].map((l) => l.op).join(',') || 'none'}; recovery ${JSON.stringify(engine.recovery)}; ` +
            `${files.size} blob files, ${listed.size} objects, ${uploads.length} unfinished uploads`,
        );
        expect(problems, `round ${round} (seed ${SEED})`).toEqual([]);

        // Unfinished uploads of killed writers: abort them so the next round starts clean-ish.
        for (const u of uploads) await engine.abortUpload(ref, u.name, u.uploadId);
        expect(engine.listUploads(ref).uploads).toEqual([]);
      } finally {
        await engine.close();
      }
      // Acknowledged work must actually have happened in most rounds (guards against a writer that does nothing).
      expect(lines.length, `round ${round} produced no operations`).toBeGreaterThan(0);
    }
    console.log(`${summary.join('\n')}\ntotal ${(performance.now() - started).toFixed(0)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
