// Non-ASCII as bytes on the wire (issue 27): raw UTF-8 in the request line (Swift serves it; Node's
// parser refuses it unless Coffer escapes it first), in X-Copy-From and X-Object-Manifest, and
// Content-Type and metadata kept byte for byte. No client percent-leaves a path, so these requests
// are written on a socket.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLineEscaper } from '../../src-main/http/common/request-lines.js';
import { ALICE, send, signRequest, startS3Server, type S3TestServer } from '../compat/server.js';
import { startTestServer, type TestServer } from './server.js';

/** The UTF-8 bytes of `text` as a latin1 string: what travels, one character per byte. */
const bytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

const escapeAll = (chunks: string[]): string => {
  const e = new RequestLineEscaper();
  return chunks.map((c) => e.escape(Buffer.from(c, 'latin1')).toString('latin1')).join('');
};

describe('request-line escaping', () => {
  const body = `\u00e9\n${bytes('GET /é HTTP/1.1')}\r\n\r\n`;
  const stream = [
    `PUT /v1/AUTH_a/c/${bytes('café')} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    `PUT /v1/AUTH_a/c/${bytes('ß')} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    `PUT /v1/AUTH_a/c/${bytes('ü')} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    `\r\nGET /v1/AUTH_a/c/${bytes('日')}?x=${bytes('é')} HTTP/1.1\r\nX-Meta: ${bytes('é')}\r\n\r\n`,
  ].join('');
  const expected = stream
    .replace(bytes('café'), 'caf%C3%A9')
    .replace(`/c/${bytes('ß')}`, '/c/%C3%9F')
    .replace(`/c/${bytes('ü')}`, '/c/%C3%BC')
    .replace(`${bytes('日')}?x=${bytes('é')}`, '%E6%97%A5?x=%C3%A9');

  it('escapes the bytes above 0x7f of request lines only, never of bodies (length or chunked) or headers', () => {
    expect(escapeAll([stream])).toBe(expected);
  });

  it('gives the same bytes however the connection splits them', () => {
    expect(escapeAll(stream.split(''))).toBe(expected);
    expect(escapeAll([stream.slice(0, 50), stream.slice(50, 173), stream.slice(173)])).toBe(expected);
  });

  it('stops escaping where it cannot follow the framing (a second Content-Length), leaving it to the parser', () => {
    const odd = `PUT /a HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx GET /${bytes('é')} HTTP/1.1\r\n\r\n`;
    expect(escapeAll([odd])).toBe(odd);
  });
});

/** Writes each request on one connection, the next once the answer before it is complete; the answers' raw text. */
function converse(port: number, requests: Buffer[]): Promise<{ status: number; head: string; body: Buffer }[]> {
  return new Promise((resolve, reject) => {
    const answers: { status: number; head: string; body: Buffer }[] = [];
    let buffered = Buffer.alloc(0);
    const socket = connect(port, '127.0.0.1', () => socket.write(requests[0]!));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const isHead = requests[answers.length]!.subarray(0, 5).toString() === 'HEAD ';
        const length = isHead ? 0 : Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        answers.push({ status: Number(head.slice(9, 12)), head, body: buffered.subarray(end + 4, end + 4 + length) });
        buffered = buffered.subarray(end + 4 + length);
        if (answers.length === requests.length) return void socket.end();
        socket.write(requests[answers.length]!);
      }
    });
    socket.on('close', () => resolve(answers));
    socket.on('error', reject);
  });
}

const request = (method: string, target: string, headers: Record<string, string>, body: Buffer | string = ''): Buffer => {
  const b = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  const head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}Content-Length: ${b.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), b]);
};

describe('native API: raw UTF-8 on the wire', () => {
  let s: TestServer;
  let base: string;
  let auth: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer();
    base = new URL(s.storageUrl).pathname.replace('$', '%24');
    auth = { 'X-Auth-Token': s.token };
  });
  afterAll(() => s.close());

  it('serves a name sent as raw bytes as the same name percent-encoded, with binary bodies around it on one connection', async () => {
    const binary = Buffer.from([0xc3, 0xa9, 0x0a, 0xff, 0x0d, 0x0a, 0x0d, 0x0a, 0x80]);
    const answers = await converse(s.port, [
      request('PUT', `${base}/raw`, auth),
      request('PUT', `${base}/raw/${bytes('café/日本')}`, { ...auth, 'Content-Type': 'application/octet-stream' }, binary),
      request('GET', `${base}/raw/caf%C3%A9/%E6%97%A5%E6%9C%AC`, auth),
      request('GET', `${base}/raw/${bytes('café/日本')}`, auth),
      request('GET', `${base}/raw?format=json`, auth),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 200, 200, 200]);
    expect(answers[2]!.body.equals(binary)).toBe(true);
    expect(answers[3]!.body.equals(binary)).toBe(true);
    expect(JSON.parse(answers[4]!.body.toString('utf8')).map((o: { name: string }) => o.name)).toEqual(['café/日本']);
  });

  it('refuses invalid UTF-8 and NUL in a path as Swift does: 412 "Invalid UTF8 or contains NULL"', async () => {
    const answers = await converse(s.port, [request('GET', `${base}/raw/caf\u00ff`, auth), request('PUT', `${base}/raw/a%00b`, auth)]);
    expect(answers.map((a) => [a.status, a.body.toString('utf8')])).toEqual([
      [412, 'Invalid UTF8 or contains NULL'],
      [412, 'Invalid UTF8 or contains NULL'],
    ]);
  });

  it('copies from an X-Copy-From naming the source in raw UTF-8, and follows a DLO prefix given so', async () => {
    const answers = await converse(s.port, [
      request('PUT', `${base}/copies`, auth),
      request('PUT', `${base}/copies/${bytes('Grüße')}`, auth, 'hello'),
      request('PUT', `${base}/copies/dst`, { ...auth, 'X-Copy-From': `copies/${bytes('Grüße')}` }),
      request('GET', `${base}/copies/dst`, auth),
      request('PUT', `${base}/copies/dlo`, { ...auth, 'X-Object-Manifest': `copies/${bytes('Grü')}` }),
      request('GET', `${base}/copies/dlo`, auth),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 200, 201, 200]);
    expect(answers[2]!.head).toContain('X-Copied-From: copies/Gr%C3%BC%C3%9Fe');
    expect(answers[3]!.body.toString()).toBe('hello');
    expect(answers[5]!.body.toString()).toBe('hello');
  });

  it('keeps Content-Type and metadata byte for byte: HEAD and GET send the bytes received, listings show the text', async () => {
    const type = `text/plain; title=${bytes('Grüße')}`;
    const answers = await converse(s.port, [
      request('PUT', `${base}/meta`, { ...auth, 'X-Container-Meta-City': bytes('Köln') }),
      request('PUT', `${base}/meta/o`, { ...auth, 'Content-Type': type, 'X-Object-Meta-City': bytes('München'), 'X-Object-Meta-Bytes': 'a\u00ffb' }, 'x'),
      request('HEAD', `${base}/meta/o`, auth),
      request('GET', `${base}/meta/o`, auth),
      request('GET', `${base}/meta?format=json`, auth),
      request('HEAD', `${base}/meta`, auth),
    ]);
    for (const a of [answers[2]!, answers[3]!]) {
      expect(a.head).toContain(`\r\nContent-Type: ${type}`);
      expect(a.head).toContain(`\r\nX-Object-Meta-City: ${bytes('München')}`);
      expect(a.head).toContain('\r\nX-Object-Meta-Bytes: a\u00ffb');
    }
    // Listings show the type as Swift's container server rebuilds it: parameters without spaces.
    expect(JSON.parse(answers[4]!.body.toString('utf8'))[0].content_type).toBe('text/plain;title=Grüße');
    expect(answers[5]!.head).toContain(`\r\nX-Container-Meta-City: ${bytes('Köln')}`);
  });
});

describe('S3 API: raw UTF-8 in the request line', () => {
  let s: S3TestServer;
  beforeAll(async () => {
    s = await startS3Server();
    const { headers, body } = await signRequest(s, 'PUT', '/utf8-raw', { as: ALICE });
    expect((await send(s.port, 'PUT', '/utf8-raw', headers, body)).status).toBe(200);
  });
  afterAll(() => s.close());

  it('verifies SigV4 signed over the name and serves it, to either spelling of the path', async () => {
    const put = await signRequest(s, 'PUT', '/utf8-raw/café', { as: ALICE, body: 'bonjour', headers: { 'content-type': `text/plain; title=${bytes('Grüße')}` }, unsigned: ['content-type'] });
    expect((await send(s.port, 'PUT', `/utf8-raw/${bytes('café')}`, put.headers, put.body)).status).toBe(200);
    const get = await signRequest(s, 'GET', '/utf8-raw/café', { as: ALICE });
    const raw = await send(s.port, 'GET', `/utf8-raw/${bytes('café')}`, get.headers);
    const escaped = await send(s.port, 'GET', '/utf8-raw/caf%C3%A9', get.headers);
    for (const r of [raw, escaped]) {
      expect(r.status).toBe(200);
      expect(r.text).toBe('bonjour');
      expect(r.headers['content-type']).toBe(`text/plain; title=${bytes('Grüße')}`);
    }
  });
});
