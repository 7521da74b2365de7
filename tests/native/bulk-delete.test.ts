import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type XloServer } from './xlo-server.js';

let s: XloServer;
let otherToken: string;
const JSON_ACCEPT = { Accept: 'application/json', 'Content-Type': 'text/plain' };
const bulk = (body: string, headers: Record<string, string> = JSON_ACCEPT, method = 'POST', token?: string) =>
  request(s, method, '?bulk-delete', { body, headers, ...(token ? { token } : {}) });

beforeAll(async () => {
  s = await startServer();
  await s.app.engine.createAccount({ id: 'test$other', swiftKeys: [{ sub: 'swift', secretKey: 'other-key' }] });
  const auth = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': 'test$other:swift', 'X-Auth-Key': 'other-key' } });
  otherToken = auth.headers.get('x-auth-token')!;
});
afterAll(() => s.close());

async function fill(container: string, names: string[]): Promise<void> {
  await request(s, 'PUT', `/${container}`);
  for (const n of names) await request(s, 'PUT', `/${container}/${encodeURIComponent(n)}`, { body: n });
}

describe('bulk delete', () => {
  it('deletes objects then their emptied container, counting missing paths', async () => {
    await fill('a', ['one', 'two words', 'ünï/cödé']);
    const body = ['/a/one', '/a/two%20words', encodeURI('/a/ünï/cödé'), '/a/missing', '/nocontainer/x', '/a', ''].join('\n');
    const r = await bulk(body);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(r.text)).toEqual({ 'Number Deleted': 4, 'Number Not Found': 2, 'Response Body': '', 'Response Status': '200 OK', Errors: [] });
    expect((await request(s, 'HEAD', '/a')).status).toBe(404);
  });

  it('reports a non-empty container as 409 and the call as 400, in plain text by default', async () => {
    await fill('full', ['x']);
    const r = await bulk('/full\n', { 'Content-Type': 'text/plain' });
    expect(r.status).toBe(200);
    expect(r.text).toBe('Number Deleted: 0\nNumber Not Found: 0\nResponse Body: \nResponse Status: 400 Bad Request\nErrors:\n/full, 409 Conflict\n');
  });

  it('answers as Swift\'s bulk middleware: the matched type without a charset, chunked (no Content-Length)', async () => {
    await fill('framing', ['a', 'b', 'c']);
    const answers = [await bulk('/framing/a\n'), await bulk('/framing/b\n', { 'Content-Type': 'text/plain' }), await bulk('/framing/c\n', { 'Content-Type': 'text/plain', Accept: 'application/xml' })];
    expect(answers.map((r) => [r.status, r.headers.get('content-type'), r.headers.get('content-length'), r.headers.get('transfer-encoding')])).toEqual([
      [200, 'application/json', null, 'chunked'],
      [200, 'text/plain', null, 'chunked'],
      [200, 'application/xml', null, 'chunked'],
    ]);
    expect(JSON.parse(answers[0]!.text)).toMatchObject({ 'Number Deleted': 1, 'Response Status': '200 OK' });
  });

  it('answers an XML report in the XML type Accept picked, text/xml as application/xml (Swift\'s best_match)', async () => {
    await fill('xmltypes', ['a', 'b', 'c']);
    const ask = (name: string, accept: string) => bulk(`/xmltypes/${name}\n`, { 'Content-Type': 'text/plain', Accept: accept });
    const answers = [await ask('a', 'text/xml'), await ask('b', 'application/xml, text/xml'), await ask('c', 'text/xml;q=0.9, application/xml;q=0.5')];
    expect(answers.map((r) => [r.status, r.headers.get('content-type')])).toEqual([
      [200, 'text/xml'],
      [200, 'application/xml'],
      [200, 'text/xml'],
    ]);
    for (const r of answers) expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<delete>.*<number_deleted>1<\/number_deleted>/s);
  });

  it('speaks XML when asked, and DELETE works like POST', async () => {
    await fill('x', ['a&b']);
    const r = await bulk('/x/a%26b\n', { Accept: 'application/xml' }, 'DELETE');
    expect(r.text).toContain('<number_deleted>1</number_deleted>');
    expect(r.text).toContain('<response_status>200 OK</response_status>');
    expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<delete>/);
  });

  it('an empty request is an invalid bulk delete', async () => {
    const r = await bulk('\n\n');
    expect(JSON.parse(r.text)).toMatchObject({ 'Response Status': '400 Bad Request', 'Response Body': 'Invalid bulk delete.' });
  });

  it('checks each path against the caller: another account gets 403 per path', async () => {
    await fill('mine', ['o']);
    const r = await request(s, 'POST', `${s.storageUrl}?bulk-delete`, { body: '/mine/o\n/mine\n', headers: JSON_ACCEPT, token: otherToken });
    expect(JSON.parse(r.text)).toMatchObject({ 'Number Deleted': 0, Errors: [['/mine/o', '403 Forbidden'], ['/mine', '403 Forbidden']] });
    await request(s, 'POST', '/mine', { headers: { 'X-Container-Write': 'test$other' } });
    const allowed = await request(s, 'POST', `${s.storageUrl}?bulk-delete`, { body: '/mine/o\n', headers: JSON_ACCEPT, token: otherToken });
    expect(JSON.parse(allowed.text)).toMatchObject({ 'Number Deleted': 1, Errors: [] });
    expect((await request(s, 'POST', '?bulk-delete', { body: '/mine\n', token: null })).status).toBe(401);
  });

  it('refuses other body types and more than 10000 paths', async () => {
    expect((await bulk('/a/b', { 'Content-Type': 'application/json' })).status).toBe(406);
    const many = Array.from({ length: 10001 }, (_, i) => `/c/${i}`).join('\n');
    const r = await bulk(many);
    expect([r.status, r.text]).toEqual([413, 'Maximum Bulk Deletes: 10000 per request']);
  });
});
