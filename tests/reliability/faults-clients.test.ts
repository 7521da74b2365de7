/**
 * Clients that misbehave or crowd in, against the real `coffer serve` (with its slow-client
 * timeouts shortened through the environment): stalled heads, stalled bodies and bodies that
 * trickle in are dropped without holding up anyone else, and a thousand simultaneous
 * connections are all served.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, signRequest } from '../compat/server.js';
import { exchange } from './raw-socket.js';
import { ALICE, servedWithContainer } from './served.js';

const HEADERS_TIMEOUT_MS = 1000;
const IDLE_TIMEOUT_MS = 1500;
/** A body must average this many bytes per second once it has been arriving for BODY_GRACE_MS. */
const BODY_MIN_RATE = 1000;
const BODY_GRACE_MS = 1000;
let store: Awaited<ReturnType<typeof servedWithContainer>>['store'];
let port: number;
let storagePath: string;
let token: string;

beforeAll(async () => {
  ({ store, port, storagePath, token } = await servedWithContainer('faults', {
    COFFER_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    COFFER_HTTP_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
    COFFER_HTTP_BODY_GRACE_MS: String(BODY_GRACE_MS),
    COFFER_HTTP_BODY_MIN_RATE: String(BODY_MIN_RATE),
  }));
});
afterAll(async () => {
  await store?.close();
});

/** Opens a connection and resolves when the server closes it (with whatever it sent). */
function stall(send: (s: Socket) => void): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let got = '';
  socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('connect', () => send(socket));
  return { socket, closed: new Promise((resolve) => socket.on('close', () => resolve(got))) };
}

/** Every abandoned upload's handler has ended: no temporary blob is left in the store (waits up to 5 s). */
async function expectNoTempBlobs(): Promise<void> {
  const tmp = join(store.dataDir, 'tmp');
  const until = Date.now() + 5000;
  while (readdirSync(tmp).length > 0 && Date.now() < until) await sleep(50);
  expect(readdirSync(tmp)).toEqual([]);
}

describe('stalled clients', () => {
  it('a head sent a byte at a time, a body that stops, and a silent connection are dropped; others are served meanwhile', async () => {
    const stalled: { closed: Promise<string>; socket: Socket }[] = [];
    const trickles: NodeJS.Timeout[] = [];
    for (let i = 0; i < 20; i++) {
      // Slow head: a header line every 100 ms, never finishing (the idle timeout never fires; the head timeout must).
      stalled.push(
        stall((s) => {
          s.write(`GET ${storagePath}/fc HTTP/1.1\r\nHost: x\r\n`);
          trickles.push(setInterval(() => s.writable && s.write(`X-Slow-${Date.now()}: y\r\n`), 100));
        }),
      );
      // Slow body: a head promising 1 MB, a few bytes, then nothing.
      stalled.push(stall((s) => s.write(`PUT ${storagePath}/fc/slow${i} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${token}\r\nContent-Length: 1000000\r\n\r\nabc`)));
      // Connected, silent.
      stalled.push(stall(() => undefined));
    }
    try {
      // While the 60 stalled connections are held, ordinary requests through both APIs go through.
      for (let i = 0; i < 20; i++) {
        const r = await exchange(port, `GET /info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, { timeoutMs: 5000 });
        expect(r.status).toBe(200);
        expect((await raw({ port }, 'PUT', `/fc/ok${i}`, { as: ALICE, body: 'fine' })).status).toBe(200);
      }
      const answers = await Promise.all(stalled.map((s) => s.closed));
      // Unfinished heads (slow or silent) and the stalled bodies (too slow once their grace is over) get a 408 before the close.
      expect(answers.map((a) => a.slice(0, 12))).toEqual(answers.map(() => 'HTTP/1.1 408'));
    } finally {
      trickles.forEach(clearInterval);
      stalled.forEach((s) => s.socket.destroy());
    }
    // The abandoned uploads left nothing visible, and nothing behind: each one's handler ended and
    // removed the temporary blob its announced megabyte was going into.
    const listing = await fetch(`http://127.0.0.1:${port}${storagePath}/fc?format=json`, { headers: { 'X-Auth-Token': token } });
    expect(((await listing.json()) as { name: string }[]).filter((o) => o.name.startsWith('slow'))).toEqual([]);
    await expectNoTempBlobs();
  });
});

describe('bodies that trickle in', () => {
  it('are answered with each API\'s timeout error and leave nothing, while a full upload goes through', async () => {
    const size = 100_000;
    // One body over the inline limit (it goes to a file) and one under it (held in memory).
    const heads: { api: 'native' | 's3'; head: string }[] = [];
    for (const n of [size, 1_000]) {
      const s3 = await signRequest({ port }, 'PUT', `/fc/trickle-s3-${n}`, { as: ALICE, body: Buffer.alloc(n), payloadHash: 'UNSIGNED-PAYLOAD' });
      const s3Head = Object.entries(s3.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      heads.push({ api: 'native', head: `PUT ${storagePath}/fc/trickle-native-${n} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${token}\r\nContent-Length: ${n}\r\n\r\n` });
      heads.push({ api: 's3', head: `PUT /fc/trickle-s3-${n} HTTP/1.1\r\n${s3Head}\r\n` });
    }
    const trickles: NodeJS.Timeout[] = [];
    // Ten bytes a second: never silent long enough for the idle timeout, far below the minimum rate.
    const slow = heads.map(({ head }) =>
      stall((s) => {
        s.write(head);
        trickles.push(setInterval(() => s.writable && s.write('x'), 100));
      }),
    );
    try {
      const started = Date.now();
      expect((await raw({ port }, 'PUT', '/fc/fast', { as: ALICE, body: Buffer.alloc(size, 1) })).status).toBe(200);
      const answers = await Promise.all(slow.map((s) => s.closed));
      expect(Date.now() - started).toBeLessThan(10 * BODY_GRACE_MS);
      for (const [i, answer] of answers.entries()) {
        if (heads[i]!.api === 'native') {
          expect(answer).toMatch(/^HTTP\/1\.1 408 /);
          expect(answer).toMatch(/\r\nconnection: close\r\n/i);
        } else {
          expect(answer).toMatch(/^HTTP\/1\.1 400 /);
          expect(answer).toContain('<Code>RequestTimeout</Code>');
        }
      }
    } finally {
      trickles.forEach(clearInterval);
      slow.forEach((s) => s.socket.destroy());
    }
    const listing = await fetch(`http://127.0.0.1:${port}${storagePath}/fc?format=json`, { headers: { 'X-Auth-Token': token } });
    const names = ((await listing.json()) as { name: string }[]).map((o) => o.name);
    expect(names).toContain('fast');
    expect(names.filter((n) => n.startsWith('trickle'))).toEqual([]);
    await expectNoTempBlobs();
  });
});

// The crowd meets the server's own timeouts: the shortened ones above are for the stall tests, and
// on a loaded machine a thousand heads are not all read within their 1 s (they were answered 408).
describe('crowds', () => {
  let crowd: Awaited<ReturnType<typeof servedWithContainer>>;
  beforeAll(async () => {
    crowd = await servedWithContainer('crowds');
    const put = await fetch(`http://127.0.0.1:${crowd.port}${crowd.storagePath}/fc/ok0`, { method: 'PUT', headers: { 'X-Auth-Token': crowd.token }, body: 'fine' });
    expect(put.status).toBe(201);
  });
  afterAll(async () => {
    await crowd?.store.close();
  });

  it('1,000 simultaneous connections are all served', async () => {
    const { port, storagePath, token } = crowd;
    const N = 1000;
    const sockets: Socket[] = [];
    try {
      // Each connection sends its request as soon as it is open (a connection left silent would
      // meet the shortened head timeout) and is kept open by the client until the end.
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) => new Promise<number>((resolve) => {
          let got = '';
          const s = connect(port, '127.0.0.1', () => {
            const path = i % 2 ? '/info' : `${storagePath}/fc/ok0`;
            s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${token}\r\n\r\n`);
          });
          sockets.push(s);
          s.on('data', (c: Buffer) => {
            got += c.toString('latin1');
            if (got.includes('\r\n\r\n')) resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0));
          });
          s.on('error', () => resolve(-1));
          s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0)));
        })),
      );
      const byStatus = answers.reduce<Record<number, number>>((m, st) => ((m[st] = (m[st] ?? 0) + 1), m), {});
      expect(byStatus).toEqual({ 200: N });
    } finally {
      sockets.forEach((s) => s.destroy());
    }
  });
});
