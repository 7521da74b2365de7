// Static web sites (issue #27), as Swift 2.30's staticweb serves them: the site set up with the
// `swift` CLI (`swift post -r … -m web-…`), then read as a browser does (fetch, no token), against
// a real server.
import { execFile } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';
import { useServerWithScratch } from './http-kit.js';
import { swiftClientEnv } from './swift-tools.js';

let s!: TestServer;
let work!: string;
useServerWithScratch('coffer-staticweb-', (server, scratch) => ((s = server), (work = scratch)));

function swift(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('swift', args, { cwd: work, env: swiftClientEnv({ ST_AUTH: s.authUrl, ST_USER: SWIFT_USER, ST_KEY: SWIFT_KEY }), timeout: 50_000 }, (err, _out, stderr) =>
      err ? reject(new Error(`swift ${args.join(' ')}: ${stderr}`)) : resolve(),
    );
  });
}

/** A browser's request: no token, redirects not followed. */
async function browse(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(`${s.storageUrl}${path}`, { redirect: 'manual', ...init });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

const put = async (path: string, body: string, type = 'text/html') => expect((await call(s, 'PUT', path, { body, headers: { 'Content-Type': type } })).status).toBe(201);

describe('static web sites', () => {
  beforeAll(async () => {
    await call(s, 'PUT', '/site');
    await swift(['post', '-r', '.r:*,.rlistings', '-m', 'web-index:index.html', '-m', 'web-error:error.html', 'site']);
    await put('/site/index.html', '<p>home</p>');
    await put('/site/docs/index.html', '<p>docs</p>');
    await put('/site/files/a.txt', 'aaa', 'text/plain');
    await put('/site/files/deeper/b.txt', 'b', 'text/plain');
    await put('/site/404error.html', '<p>no such page</p>');
  });

  it('serves the index of the container and of a directory, after a 301 to the path with its slash', async () => {
    const root = await browse('/site');
    expect(root.status).toBe(301);
    expect(root.headers.get('location')).toBe(`${s.storageUrl.replace('$', '%24')}/site/`);
    expect(await browse('/site/')).toMatchObject({ status: 200, text: '<p>home</p>' });
    const docs = await browse('/site/docs');
    expect([docs.status, docs.headers.get('location')]).toEqual([301, `${s.storageUrl.replace('$', '%24')}/site/docs/`]);
    const page = await browse('/site/docs/');
    expect([page.status, page.headers.get('content-type'), page.text]).toEqual([200, 'text/html', '<p>docs</p>']);
    expect((await browse('/site/docs/', { method: 'HEAD' })).status).toBe(200);
  });

  it('answers a missing page with the 404 error page, and a signed-in reader as the API does', async () => {
    const missing = await browse('/site/nope.html');
    expect([missing.status, missing.text]).toEqual([404, '<p>no such page</p>']);
    // The owner's token: the JSON listing, not the site; with X-Web-Mode, the site.
    const owner = await call(s, 'GET', '/site/');
    expect(owner.headers.get('content-type')).toContain('application/json');
    const webMode = await call(s, 'GET', '/site/', { headers: { 'X-Web-Mode': 'true' } });
    expect(webMode.text).toBe('<p>home</p>');
  });

  it('lists a directory without an index as Swift does, once web-listings is on (with its style sheet and label)', async () => {
    // No index in files/: listings off, the 404 page says so (here: the site's own 404 page).
    expect((await browse('/site/files/')).text).toBe('<p>no such page</p>');
    await swift(['post', '-m', 'web-listings:true', '-m', 'web-listings-css:style.css', '-m', 'web-listings-label:example.com', 'site']);
    const list = await browse('/site/files/');
    expect([list.status, list.headers.get('content-type')]).toEqual([200, 'text/html; charset=UTF-8']);
    expect(list.text).toContain('<title>Listing of example.com/files/</title>');
    expect(list.text).toContain('<link rel="stylesheet" type="text/css" href="../style.css" />');
    expect(list.text).toContain('<tr id="parent" class="item">');
    expect(list.text).toContain('<tr class="item subdir">\n    <td class="colname"><a href="deeper/">deeper/</a></td>');
    expect(list.text).toMatch(/<tr class="item type-text type-plain">\n {4}<td class="colname"><a href="a.txt">a.txt<\/a><\/td>\n {4}<td class="colsize">3<\/td>\n {4}<td class="coldate">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d<\/td>/);
    expect((await browse('/site/files')).status).toBe(301);
    expect((await browse('/site/nothing/')).text).toBe('<p>no such page</p>');
  });

  it('treats a directory marker as a directory, and leaves containers without web settings alone', async () => {
    await put('/site/files', '', 'application/directory');
    expect((await browse('/site/files')).status).toBe(301);
    await call(s, 'PUT', '/plain', { headers: { 'X-Container-Read': '.r:*,.rlistings' } });
    await put('/plain/index.html', 'x');
    const plain = await browse('/plain/?format=json');
    expect(JSON.parse(plain.text)).toEqual([expect.objectContaining({ name: 'index.html' })]);
    expect((await call(s, 'GET', '/plain/', { headers: { 'X-Web-Mode': 'true' } })).status).toBe(404);
  });

  it('serves the 401 error page to a reader the container does not let list', async () => {
    await call(s, 'PUT', '/members', { headers: { 'X-Container-Read': '.r:*', 'X-Container-Meta-Web-Listings': 'true', 'X-Container-Meta-Web-Error': 'error.html' } });
    await put('/members/401error.html', '<p>members only</p>');
    expect(await browse('/members/')).toMatchObject({ status: 401, text: '<p>members only</p>' });
  });

  it('is advertised in /info', async () => {
    const info = (await (await fetch(`${s.url}/info`)).json()) as Record<string, unknown>;
    expect(info.staticweb).toEqual({});
  });
});
