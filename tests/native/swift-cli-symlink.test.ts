// Swift symlinks (issue #27), as Swift 2.30's symlink middleware serves them, through
// python-swiftclient and the `swift` CLI against a real server; plain HTTP in symlink.test.ts.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT, SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';
import { python, swiftClientEnv } from './swift-tools.js';
import { md5, useServerWithScratch } from './http-kit.js';

let s!: TestServer;
let work!: string;
useServerWithScratch('coffer-symlink-', (server, scratch) => ((s = server), (work = scratch)));

const EMPTY_MD5 = md5('');
const AUTH = `AUTH_${encodeURIComponent(ACCOUNT)}`;

const clientEnv = () => swiftClientEnv({ ST_AUTH: s.authUrl, ST_USER: SWIFT_USER, ST_KEY: SWIFT_KEY });

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: work, env: clientEnv(), timeout: 50_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0, stdout, stderr });
    });
  });
}

async function py(script: string): Promise<Record<string, unknown>> {
  const file = join(work, `s-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, `import json, sys\nfrom swiftclient import client as c\nfrom swiftclient.exceptions import ClientException\nurl, tok = c.get_auth(sys.argv[1], sys.argv[2], sys.argv[3])\nout = {}\n${script}\nprint(json.dumps(out))\n`);
  const r = await run(python(), [file, s.authUrl, SWIFT_USER, SWIFT_KEY]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

describe('symlinks through python-swiftclient and the swift CLI', () => {
  it('a dynamic link: GET/HEAD follow it, ?symlink=get reads the link, listings show symlink_path', async () => {
    const out = await py(`
c.put_container(url, tok, 'tgt')
c.put_container(url, tok, 'links')
c.put_object(url, tok, 'tgt', 'obj', b'hello', content_type='text/x-hello', headers={'X-Object-Meta-Color': 'blue'})
c.put_object(url, tok, 'links', 'ln', b'', headers={'X-Symlink-Target': 'tgt/obj'})
h, body = c.get_object(url, tok, 'links', 'ln')
out['get'] = [h.get('content-type'), body.decode(), h.get('content-location'), h.get('x-object-meta-color'), h.get('etag')]
h = c.head_object(url, tok, 'links', 'ln', query_string='symlink=get')
out['self'] = [h.get('content-type'), h.get('content-length'), h.get('x-symlink-target'), h.get('etag')]
_, listing = c.get_container(url, tok, 'links')
out['listing'] = listing
c.delete_object(url, tok, 'tgt', 'obj')
try:
    c.get_object(url, tok, 'links', 'ln')
except ClientException as e:
    out['gone'] = [e.http_status, e.http_response_headers.get('content-location')]
`);
    // swiftclient unquotes header values: Content-Location is sent as `/v1/AUTH_test%24tester/tgt/obj`.
    expect(out.get).toEqual(['text/x-hello', 'hello', `/v1/AUTH_${ACCOUNT}/tgt/obj`, 'blue', md5('hello')]);
    expect(out.self).toEqual(['application/symlink', '0', 'tgt/obj', EMPTY_MD5]);
    const [row] = out.listing as Record<string, unknown>[];
    expect(row).toMatchObject({ name: 'ln', bytes: 0, hash: EMPTY_MD5, content_type: 'application/symlink', symlink_path: `/v1/${AUTH}/tgt/obj` });
    expect(row).not.toHaveProperty('symlink_etag');
    expect(out.gone).toEqual([404, `/v1/${AUTH}/tgt/obj`]);
  });

  it('swift upload --header makes a link; swift download follows it; swift capabilities lists symlink', async () => {
    writeFileSync(join(work, 'empty'), '');
    const t = await run('swift', ['upload', 'cli', 'empty', '--object-name', 'data.txt']);
    expect(t.code, t.stderr).toBe(0);
    writeFileSync(join(work, 'real'), 'real bytes');
    expect((await run('swift', ['upload', 'cli', 'real', '--object-name', 'real.txt'])).code).toBe(0);
    const up = await run('swift', ['upload', 'cli', 'empty', '--object-name', 'pointer', '--header', 'X-Symlink-Target: cli/real.txt']);
    expect(up.code, up.stderr).toBe(0);
    const down = await run('swift', ['download', 'cli', 'pointer', '-o', '-']);
    expect(down.stdout).toBe('real bytes');
    const caps = JSON.parse((await run('swift', ['capabilities', '--json'])).stdout) as Record<string, unknown>;
    expect(caps.symlink).toEqual({ symloop_max: 2, static_links: true });
  });

  it('a static link: created only with the target ETag, listed with symlink_etag/bytes, 409 once the target changes', async () => {
    const out = await py(`
c.put_container(url, tok, 'st')
etag = c.put_object(url, tok, 'st', 'obj', b'static!', content_type='text/static')
try:
    c.put_object(url, tok, 'st', 'bad', b'', headers={'X-Symlink-Target': 'st/obj', 'X-Symlink-Target-Etag': 'f' * 32})
except ClientException as e:
    out['wrong'] = [e.http_status, e.http_response_content.decode()]
try:
    c.put_object(url, tok, 'st', 'bad', b'', headers={'X-Symlink-Target': 'st/none', 'X-Symlink-Target-Etag': etag})
except ClientException as e:
    out['missing'] = [e.http_status, e.http_response_content.decode()]
c.put_object(url, tok, 'st', 'ln', b'', headers={'X-Symlink-Target': 'st/obj', 'X-Symlink-Target-Etag': '"%s"' % etag})
h = c.head_object(url, tok, 'st', 'ln', query_string='symlink=get')
out['self'] = [h.get('content-type'), h.get('x-symlink-target-etag'), h.get('x-symlink-target-bytes')]
_, listing = c.get_container(url, tok, 'st')
out['listing'] = [r for r in listing if r['name'] == 'ln']
c.put_object(url, tok, 'st', 'obj', b'changed')
try:
    c.get_object(url, tok, 'st', 'ln')
except ClientException as e:
    out['changed'] = [e.http_status, e.http_response_content.decode()]
out['etag'] = etag
`);
    const etag = out.etag as string;
    expect(out.wrong).toEqual([409, `Object Etag '${etag}' does not match X-Symlink-Target-Etag header '${'f'.repeat(32)}'`]);
    expect(out.missing).toEqual([409, 'X-Symlink-Target does not exist']);
    expect(out.self).toEqual(['text/static', etag, '7']);
    expect((out.listing as unknown[])[0]).toMatchObject({ name: 'ln', symlink_etag: etag, symlink_bytes: 7, symlink_path: `/v1/${AUTH}/st/obj`, content_type: 'text/static' });
    expect(out.changed).toEqual([409, `Object Etag '${md5('changed')}' does not match X-Symlink-Target-Etag header '${etag}'`]);
  });

  it('a TempURL follows a link only within its key\'s scope: a container key its container, an account key its account', async () => {
    const out = await py(`
import urllib.request, urllib.error
from swiftclient.utils import generate_temp_url
c.put_container(url, tok, 'tu', headers={'X-Container-Meta-Temp-URL-Key': 'ckey'})
c.put_container(url, tok, 'tu-other')
c.post_account(url, tok, headers={'X-Account-Meta-Temp-URL-Key': 'akey'})
c.put_object(url, tok, 'tu', 'here', b'here')
c.put_object(url, tok, 'tu-other', 'there', b'there')
c.put_object(url, tok, 'tu', 'near', b'', headers={'X-Symlink-Target': 'tu/here'})
c.put_object(url, tok, 'tu', 'far', b'', headers={'X-Symlink-Target': 'tu-other/there'})
path = url.split('127.0.0.1', 1)[1].split('/', 1)[1]
base = url.split('/v1/')[0]
def fetch(obj, key, method='GET'):
    p = generate_temp_url('/' + path + '/tu/' + obj, 300, key, method)
    try:
        with urllib.request.urlopen(urllib.request.Request(base + p, method=method)) as r:
            return [r.status, r.read().decode()]
    except urllib.error.HTTPError as e:
        return [e.code, e.headers.get('www-authenticate')]
out['near'] = fetch('near', 'ckey')
out['far'] = fetch('far', 'ckey')
out['far-head'] = fetch('far', 'ckey', 'HEAD')
out['far-account'] = fetch('far', 'akey')
`);
    expect(out.near).toEqual([200, 'here']);
    expect(out.far).toEqual([401, `Swift realm="AUTH_${ACCOUNT}"`]);
    expect(out['far-head']).toEqual([401, `Swift realm="AUTH_${ACCOUNT}"`]);
    expect(out['far-account']).toEqual([200, 'there']);
  });

  it('?versions lists a link with symlink_path, a static one with symlink_etag and symlink_bytes', async () => {
    const out = await py(`
c.put_container(url, tok, 'vl', headers={'X-Versions-Enabled': 'true'})
c.put_object(url, tok, 'vl', 'obj', b'hello')
c.put_object(url, tok, 'vl', 'ln', b'', headers={'X-Symlink-Target': 'vl/obj'})
c.put_object(url, tok, 'vl', 'st', b'', headers={'X-Symlink-Target': 'vl/obj', 'X-Symlink-Target-Etag': '${md5('hello')}'})
_, listing = c.get_container(url, tok, 'vl', query_string='versions')
out['rows'] = {r['name']: r for r in listing}
`);
    const rows = out.rows as Record<string, Record<string, unknown>>;
    expect(rows.ln).toMatchObject({ symlink_path: `/v1/${AUTH}/vl/obj`, is_latest: true });
    expect(rows.ln).not.toHaveProperty('symlink_etag');
    expect(rows.st).toMatchObject({ symlink_path: `/v1/${AUTH}/vl/obj`, symlink_etag: md5('hello'), symlink_bytes: 5 });
    expect(rows.obj).not.toHaveProperty('symlink_path');
  });

  it('copies the target, or with ?symlink=get the link itself', async () => {
    const out = await py(`
c.put_container(url, tok, 'cp')
c.put_object(url, tok, 'cp', 'obj', b'copied bytes')
c.put_object(url, tok, 'cp', 'ln', b'', headers={'X-Symlink-Target': 'cp/obj'})
c.copy_object(url, tok, 'cp', 'ln', destination='/cp/plain')
h = c.head_object(url, tok, 'cp', 'plain', query_string='symlink=get')
out['plain'] = [h.get('content-length'), h.get('x-symlink-target')]
c.put_object(url, tok, 'cp', 'linkcopy', b'', headers={'X-Copy-From': 'cp/ln'}, query_string='symlink=get')
h = c.head_object(url, tok, 'cp', 'linkcopy', query_string='symlink=get')
out['link'] = [h.get('content-length'), h.get('x-symlink-target')]
`);
    expect(out.plain).toEqual(['12', null]);
    expect(out.link).toEqual(['0', 'cp/obj']);
  });
});
