/**
 * How the real `coffer serve` reads requests at the edges of HTTP framing, where Node's defaults
 * answered for Coffer: `Expect: 100-continue` (decided on the request head, so a refused upload
 * never streams its body), other `Expect` values, a body longer than its Content-Length, S3
 * documents over their size limit (which once killed the process), and 204s without a length.
 */
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, raw, signRequest } from '../compat/server.js';
import { exchange, serialize } from './raw-socket.js';
import { ALICE, servedStore, swiftLogin } from './served.js';

let store: Awaited<ReturnType<typeof servedStore>>;
let port: number;
let token: string;
const ACCT = `/v1/AUTH_${ALICE.account}`;

beforeAll(async () => {
  store = await servedStore('framing');
  port = store.server.port;
  token = (await swiftLogin(store.server.url, ALICE)).token;
  expect((await fetch(`${store.server.url}${ACCT}/fr`, { method: 'PUT', headers: { 'X-Auth-Token': token } })).status).toBe(201);
  expect((await raw({ port }, 'PUT', '/frs', { as: ALICE })).status).toBe(200);
});
afterAll(async () => {
  await store?.close();
});

/** A connection that sends a request head, then waits for what the server says before the body. */
class Conversation {
  private readonly socket: Socket;
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;

  constructor() {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (c: Buffer) => {
      this.received = Buffer.concat([this.received, c]);
      this.wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    this.socket.on('error', () => undefined);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  send(data: Buffer | string): void {
    this.socket.write(data);
  }

  /** Everything received once `done(text)` holds, or after `ms`. */
  async until(done: (text: string) => boolean, ms = 3000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!done(this.text()) && !this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, deadline - Date.now());
        this.waiters.push(() => (clearTimeout(t), resolve()));
      });
    }
    return this.text();
  }

  text(): string {
    return this.received.toString('latin1');
  }

  end(): void {
    this.socket.destroy();
  }
}

const hasFinalResponse = (t: string) => /HTTP\/1\.1 [2-5]\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n/.test(t);
const statuses = (t: string) => [...t.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

describe('Expect: 100-continue is decided on the request head', () => {
  it('native: an anonymous upload is refused without a 100, and its connection closes', async () => {
    const c = new Conversation();
    c.send(serialize('PUT', `${ACCT}/fr/anon`, [['Host', 'x'], ['Content-Length', '5'], ['Expect', '100-continue']]));
    const text = await c.until(hasFinalResponse);
    c.end();
    expect(statuses(text)).toEqual([401]);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('S3: an anonymous PutObject into a private bucket is refused without a 100', async () => {
    const c = new Conversation();
    c.send(serialize('PUT', '/frs/anon', [['Host', `127.0.0.1:${port}`], ['Content-Length', '5'], ['Expect', '100-continue']]));
    const text = await c.until(hasFinalResponse);
    c.end();
    expect(statuses(text)).toEqual([403]);
    expect(text).toContain('<Code>AccessDenied</Code>');
  });

  it('native and S3: an allowed upload gets its 100 Continue, then sends the body and is stored', async () => {
    const c = new Conversation();
    c.send(serialize('PUT', `${ACCT}/fr/ok`, [['Host', 'x'], ['X-Auth-Token', token], ['Content-Length', '5'], ['Expect', '100-Continue']]));
    expect(statuses(await c.until((t) => t.includes('100 Continue')))).toEqual([100]);
    c.send('hello');
    expect(statuses(await c.until(hasFinalResponse))).toEqual([100, 201]);
    c.end();

    const signed = await signRequest({ port }, 'PUT', '/frs/ok', { as: ALICE, body: 'hello', headers: { expect: '100-continue' } });
    const s3 = new Conversation();
    s3.send(serialize('PUT', '/frs/ok', Object.entries(signed.headers)));
    expect(statuses(await s3.until((t) => t.includes('100 Continue')))).toEqual([100]);
    s3.send(signed.body);
    expect(statuses(await s3.until(hasFinalResponse))).toEqual([100, 200]);
    s3.end();
    expect((await raw({ port }, 'GET', '/frs/ok', { as: ALICE })).text).toBe('hello');
  });

  it('an upload that cannot succeed (missing container) is answered without a 100', async () => {
    const c = new Conversation();
    c.send(serialize('PUT', `${ACCT}/no-such-container/o`, [['Host', 'x'], ['X-Auth-Token', token], ['Content-Length', '5'], ['Expect', '100-continue']]));
    const text = await c.until(hasFinalResponse);
    c.end();
    expect(statuses(text)).toEqual([404]);
  });

  it('an upload its quota cannot take is refused before its body, on both APIs (413 / QuotaExceeded, no 100)', async () => {
    expect((await fetch(`${store.server.url}${ACCT}/fq`, { method: 'PUT', headers: { 'X-Auth-Token': token, 'X-Container-Meta-Quota-Bytes': '10000' } })).status).toBe(201);
    const c = new Conversation();
    c.send(serialize('PUT', `${ACCT}/fq/big`, [['Host', 'x'], ['X-Auth-Token', token], ['Content-Length', String(5 * 1024 * 1024)], ['Expect', '100-continue']]));
    const text = await c.until(hasFinalResponse);
    c.end();
    expect(statuses(text)).toEqual([413]);
    const signed = await signRequest({ port }, 'PUT', '/fq/big', { as: ALICE, headers: { expect: '100-continue', 'content-length': String(5 * 1024 * 1024) }, payloadHash: 'UNSIGNED-PAYLOAD' });
    const s3 = new Conversation();
    s3.send(serialize('PUT', '/fq/big', Object.entries(signed.headers)));
    const s3Text = await s3.until(hasFinalResponse);
    s3.end();
    expect([statuses(s3Text), s3Text.includes('<Code>QuotaExceeded</Code>')]).toEqual([[403], true]);
    // Within the quota, an overwrite is judged as replacing what is there.
    const small = 'x'.repeat(6000);
    expect((await fetch(`${store.server.url}${ACCT}/fq/o`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: small })).status).toBe(201);
    expect((await fetch(`${store.server.url}${ACCT}/fq/o`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: small })).status).toBe(201);
  });

  it('other Expect values, and an empty one, are no reason for 417: the request proceeds', async () => {
    for (const value of ['something-else', '']) {
      const r = await exchange(port, serialize('PUT', `${ACCT}/fr/expect`, [['Host', 'x'], ['X-Auth-Token', token], ['Content-Length', '2'], ['Expect', value], ['Connection', 'close']], Buffer.from('ok')), { keepOpen: true });
      expect([value, r.status]).toEqual([value, 201]);
    }
  });
});

describe('a body longer than its Content-Length', () => {
  it('the request that was read is answered (and logged), then the connection closes', async () => {
    const request = serialize('PUT', `${ACCT}/fr/longer`, [['Host', 'x'], ['X-Auth-Token', token], ['Content-Length', '5']], Buffer.from('helloTHIS IS NOT A REQUEST\r\n\r\n'));
    const r = await exchange(port, request, { keepOpen: true, timeoutMs: 5000 });
    expect([r.status, r.closed]).toEqual([201, true]);
    const got = await fetch(`${store.server.url}${ACCT}/fr/longer`, { headers: { 'X-Auth-Token': token } });
    expect(await got.text()).toBe('hello');
    expect(store.server.output()).toMatch(/ PUT \/v1\/AUTH_rel\$alice\/fr\/longer 201 /);
  });
});

describe('a body shorter than its Content-Length, then the client half-closes', () => {
  const s3Short = async (key: string, full: Buffer, sent: number, extra: Record<string, string> = {}) => {
    const { headers } = await signRequest({ port }, 'PUT', `/frs/${key}`, { as: ALICE, body: full, payloadHash: 'UNSIGNED-PAYLOAD', headers: extra });
    return exchange(port, serialize('PUT', `/frs/${key}`, Object.entries(headers), full.subarray(0, sent)));
  };
  const s3Status = async (key: string) => (await raw({ port }, 'HEAD', `/frs/${key}`, { as: ALICE })).status;

  it('S3: an S3 error document (not a bare 400), BadDigest with a Content-MD5 and IncompleteBody without, small or spilled to disk; nothing is stored', async () => {
    const small = Buffer.alloc(100, 'a');
    const big = Buffer.alloc(300_000, 'b');
    const md5 = (b: Buffer) => createHash('md5').update(b).digest('base64');
    for (const [key, full, sent, extra, code] of [
      ['short-plain', small, 40, {}, 'IncompleteBody'],
      ['short-md5', small, 40, { 'content-md5': md5(small) }, 'BadDigest'],
      ['short-big', big, 150_000, {}, 'IncompleteBody'],
      ['short-big-md5', big, 150_000, { 'content-md5': md5(big) }, 'BadDigest'],
    ] as const) {
      const r = await s3Short(key, full, sent, extra);
      expect([key, r.status, r.closed, r.headers['content-type']]).toEqual([key, 400, true, 'application/xml']);
      expect([key, errorOf({ text: r.body.toString('utf8') } as never).Code]).toEqual([key, code]);
      expect(r.headers['x-amz-request-id']).toMatch(/^tx/);
      expect(await s3Status(key)).toBe(404);
    }
  });

  it("native: Swift's 499 Client Disconnect, for a Content-Length or a chunked body; nothing is stored and the server serves on", async () => {
    for (const [name, framing, body] of [
      ['short-length', ['Content-Length', '100'], Buffer.alloc(40, 'c')],
      ['short-chunked', ['Transfer-Encoding', 'chunked'], Buffer.from(`64\r\n${'c'.repeat(40)}`)],
    ] as const) {
      const r = await exchange(port, serialize('PUT', `${ACCT}/fr/${name}`, [['Host', 'x'], ['X-Auth-Token', token], [...framing]], body));
      expect([name, r.status, r.closed]).toEqual([name, 499, true]);
      const head = await fetch(`${store.server.url}${ACCT}/fr/${name}`, { method: 'HEAD', headers: { 'X-Auth-Token': token } });
      expect(head.status).toBe(404);
    }
    expect(store.server.output()).not.toMatch(/internal error/);
  });
});

describe('S3 documents over 1 MiB are refused, and the server lives on', () => {
  const bigDelete = () => `<Delete>${Array.from({ length: 1000 }, (_, i) => `<Object><Key>${`k${i}-`.padEnd(1024, 'x')}</Key></Object>`).join('')}</Delete>`;
  const cases: [string, string, string, () => string][] = [
    ['DeleteObjects', 'POST', '/frs?delete', bigDelete],
    ['PutBucketPolicy', 'PUT', '/frs?policy', () => JSON.stringify({ Version: '2012-10-17', Statement: [], Pad: 'x'.repeat(1100 * 1024) })],
    ['PutBucketVersioning', 'PUT', '/frs?versioning', () => `<VersioningConfiguration><Status>Enabled</Status>${' '.repeat(1100 * 1024)}</VersioningConfiguration>`],
    ['CreateBucket', 'PUT', '/frbig', () => `<CreateBucketConfiguration>${' '.repeat(1100 * 1024)}</CreateBucketConfiguration>`],
  ];
  it.each(cases)('%s: 400 MaxMessageLengthExceeded, with and without chunked framing', async (_name, method, path, body) => {
    // With its Content-MD5: DeleteObjects needs an integrity header before its size is judged.
    const r = await raw({ port }, method, path, { as: ALICE, body: body(), md5: true });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'MaxMessageLengthExceeded']);
    const signed = await signRequest({ port }, method, path, { as: ALICE, body: body(), md5: true, noContentLength: true, headers: { 'transfer-encoding': 'chunked' } });
    const bytes = signed.body;
    const chunked = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]);
    const whole = await exchange(port, Buffer.concat([serialize(method, path, [...Object.entries(signed.headers), ['Connection', 'close']]), chunked]), { keepOpen: true, timeoutMs: 10_000 });
    expect([whole.status, /<Code>MaxMessageLengthExceeded<\/Code>/.test(whole.body.toString())]).toEqual([400, true]);
    expect(store.server.child.exitCode).toBeNull();
    expect((await raw({ port }, 'GET', '/frs?versioning', { as: ALICE })).status).toBe(200);
  });
});

describe('a body refused part-way is drained, so its answer arrives and the connection carries on', () => {
  it('native bulk delete with a line past any path (found by the fuzzer: answered, then hung)', async () => {
    const body = Buffer.from(`<Delete>${'<Object><Key>k</Key></Object>'.repeat(40_000)}</Delete>`);
    const c = new Conversation();
    const headers: [string, string][] = [['Host', 'x'], ['X-Auth-Token', token], ['Content-Type', 'text/plain'], ['Content-Length', String(body.length)]];
    c.send(Buffer.concat([serialize('POST', `${ACCT}?bulk-delete`, headers), body]));
    c.send(serialize('HEAD', `${ACCT}/fr`, [['Host', 'x'], ['X-Auth-Token', token]]));
    const text = await c.until((t) => statuses(t).length >= 2, 10_000);
    c.end();
    expect(statuses(text)).toEqual([400, 204]);
    expect(text).toContain('Invalid File Name');
  });
});

describe('204 responses', () => {
  it('carry no Content-Length, on either API', async () => {
    await fetch(`${store.server.url}${ACCT}/fr/del`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: 'x' });
    const native = await exchange(port, serialize('DELETE', `${ACCT}/fr/del`, [['Host', 'x'], ['X-Auth-Token', token], ['Connection', 'close']]), { keepOpen: true });
    expect(native.status).toBe(204);
    expect(native.headers['content-length']).toBeUndefined();
    expect(native.headers['x-trans-id']).toBeDefined();
    await raw({ port }, 'PUT', '/frs/del', { as: ALICE, body: 'x' });
    const signed = await signRequest({ port }, 'DELETE', '/frs/del', { as: ALICE, headers: { connection: 'close' } });
    const s3 = await exchange(port, serialize('DELETE', '/frs/del', Object.entries(signed.headers)), { keepOpen: true });
    expect(s3.status).toBe(204);
    expect(s3.headers['content-length']).toBeUndefined();
  });
});
