// Error answers of the native API as Swift 2.30 sends them (swob's Response): HTML pages typed
// text/html; charset=UTF-8 with the status's title and explanation, that type on bodiless
// answers, Swift's own plain-text refusals, and what python-swiftclient makes of them.
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_DATE, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { call, SWIFT_KEY, SWIFT_USER, tempDir, type Reply, type TestServer } from './server.js';
import { python, swiftClientEnv } from './swift-tools.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

const HTML = 'text/html; charset=UTF-8';
const page = (title: string, explanation: string) => `<html><h1>${title}</h1><p>${explanation}</p></html>`;
const NOT_FOUND = page('Not Found', 'The resource could not be found.');

/** Status, type, body and the length sent, the parts of an answer these tests compare. */
function answer(r: Reply): [number, string | null, string, string | null] {
  expectBaseHeaders(r);
  return [r.status, r.headers.get('content-type'), r.text, r.headers.get('content-length')];
}

describe('error pages and bodiless answers (Swift\'s swob)', () => {
  const c = 'pages';
  beforeAll(() => mkContainer(c));

  it('a missing object or container is the Not Found page; a HEAD of one sends no page (Content-Length: 0)', async () => {
    const len = String(Buffer.byteLength(NOT_FOUND));
    expect(answer(await call(s, 'GET', `/${c}/missing`))).toEqual([404, HTML, NOT_FOUND, len]);
    expect(answer(await call(s, 'GET', '/no-such-container/x'))).toEqual([404, HTML, NOT_FOUND, len]);
    expect(answer(await call(s, 'DELETE', '/no-such-container'))).toEqual([404, HTML, NOT_FOUND, len]);
    expect(answer(await call(s, 'HEAD', `/${c}/missing`))).toEqual([404, HTML, '', '0']);
  });

  it('201 and 204 are empty and typed as Swift types them; a container PUT again is the Accepted page', async () => {
    const name = fresh('created');
    expect(answer(await call(s, 'PUT', `/${name}`))).toEqual([201, HTML, '', '0']);
    const accepted = page('Accepted', 'The request is accepted for processing.');
    expect(answer(await call(s, 'PUT', `/${name}`))).toEqual([202, HTML, accepted, String(accepted.length)]);
    expect(answer(await call(s, 'PUT', `/${name}/o`, { body: 'x' }))).toEqual([201, HTML, '', '0']);
    expect(answer(await call(s, 'DELETE', `/${name}/o`)).slice(0, 3)).toEqual([204, HTML, '']);
  });

  it('refusals without words of their own carry their status page (401, 405, 409, 416)', async () => {
    const unauthorized = await call(s, 'GET', `/${c}`, { token: null });
    expect(answer(unauthorized).slice(0, 3)).toEqual([401, HTML, page('Unauthorized', 'This server could not verify that you are authorized to access the document you requested.')]);
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Swift realm="/);
    expect(answer(await call(s, 'PUT', '')).slice(0, 3)).toEqual([405, HTML, page('Method Not Allowed', 'The method is not allowed for this resource.')]);
    const full = fresh('full');
    await mkContainer(full);
    await put(full, 'o', 'x');
    expect(answer(await call(s, 'DELETE', `/${full}`)).slice(0, 3)).toEqual([409, HTML, page('Conflict', 'There was a conflict when trying to complete your request.')]);
    // Swift's object server answers an unsatisfiable range with the object's headers, its type too.
    await put(c, 'five', '12345', { 'Content-Type': 'application/x-five' });
    const range = await call(s, 'GET', `/${c}/five`, { headers: { Range: 'bytes=10-20' } });
    expect(answer(range).slice(0, 3)).toEqual([416, 'application/x-five', page('Requested Range Not Satisfiable', 'The Range requested is not available.')]);
    expect(range.headers.get('content-range')).toBe('bytes */5');
  });

  it('a failed condition on a read is empty (Content-Length: 0); on a write it is the page', async () => {
    await put(c, 'cond', 'x');
    expect(answer(await call(s, 'GET', `/${c}/cond`, { headers: { 'If-Match': '"nope"' } })).slice(0, 4)).toEqual([412, HTML, '', '0']);
    const write = await call(s, 'PUT', `/${c}/cond`, { body: 'y', headers: { 'If-None-Match': '*' } });
    expect(answer(write).slice(0, 3)).toEqual([412, HTML, page('Precondition Failed', 'A precondition for this request was not met.')]);
  });

  it('Swift\'s plain-text refusals: metadata names as its environ spells them, object names, If-None-Match', async () => {
    const long = `X-Object-Meta-${'k'.repeat(129)}`;
    expect(answer(await call(s, 'PUT', `/${c}/m`, { body: 'x', headers: { [long]: 'v' } })).slice(0, 3)).toEqual([400, 'text/plain', `Metadata name too long: x-object-meta-K${'k'.repeat(128)}`]);
    const value = await call(s, 'POST', `/${c}/cond`, { headers: { 'X-Object-Meta-my-long2x': 'v'.repeat(257) } });
    expect(answer(value).slice(0, 3)).toEqual([400, 'text/plain', 'Metadata value longer than 256: x-object-meta-My-Long2X']);
    expect(answer(await call(s, 'PUT', `/${c}/${'n'.repeat(1025)}`, { body: 'x' })).slice(0, 3)).toEqual([400, 'text/plain', 'Object name length of 1025 longer than 1024']);
    expect(answer(await call(s, 'PUT', `/${c}/m`, { body: 'x', headers: { 'If-None-Match': '"abc"' } })).slice(0, 3)).toEqual([400, 'text/plain', 'If-None-Match only supports *']);
    // Its container checks write their words into the HTML type.
    expect(answer(await call(s, 'PUT', `/${'c'.repeat(300)}`)).slice(0, 2)).toEqual([400, HTML]);
  });

  it('a 422 (the body is not the ETag\'s) is the page and says the refused write\'s Last-Modified', async () => {
    const r = await call(s, 'PUT', `/${c}/bad-etag`, { body: 'hello', headers: { ETag: '0'.repeat(32) } });
    expect(answer(r).slice(0, 3)).toEqual([422, HTML, page('Unprocessable Entity', 'Unable to process the contained instructions')]);
    expect(r.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(Date.parse(r.headers.get('last-modified')!)).toBeGreaterThanOrEqual(Date.parse(r.headers.get('date')!));
  });
});

describe('python-swiftclient shows what went wrong', () => {
  let work: string;
  beforeAll(() => {
    work = tempDir('coffer-errors-');
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Runs statements as the tester (`c`: swiftclient.client, `url`, `tok`) and returns what they print. */
  function swiftclient(statements: string): Promise<string> {
    const file = join(work, `s-${Math.random().toString(36).slice(2)}.py`);
    writeFileSync(file, `import sys\nfrom swiftclient import client as c\nurl, tok = c.get_auth(sys.argv[1], sys.argv[2], sys.argv[3])\n${statements}\n`);
    return new Promise((resolve, reject) => {
      execFile(python(), [file, s.authUrl, SWIFT_USER, SWIFT_KEY], { env: swiftClientEnv(), timeout: 50_000 }, (err, out, stderr) => (err ? reject(new Error(stderr)) : resolve(out)));
    });
  }

  it('ClientException carries the status, its reason and Swift\'s words', async () => {
    const c = fresh('client');
    await mkContainer(c);
    const out = await swiftclient(`
def show(f):
    try:
        f()
        print('no error')
    except c.ClientException as e:
        print(e.http_status, '|', e.http_reason, '|', e.http_response_content.decode() if isinstance(e.http_response_content, bytes) else e.http_response_content, '|', str(e))
show(lambda: c.get_object(url, tok, '${c}', 'missing'))
show(lambda: c.put_object(url, tok, '${c}', 'o', b'x', headers={'X-Object-Meta-${'k'.repeat(129)}': 'v'}))
`);
    const [missing, meta] = out.trim().split('\n').map((l) => l.split(' | '));
    expect(missing!.slice(0, 3)).toEqual(['404', 'Not Found', NOT_FOUND]);
    expect(missing![3]).toContain('404 Not Found');
    expect(meta!.slice(0, 2)).toEqual(['400', 'Bad Request']);
    expect(meta![2]).toBe(`Metadata name too long: x-object-meta-K${'k'.repeat(128)}`);
    expect(meta![3]).toContain('Metadata name too long');
  });
});
