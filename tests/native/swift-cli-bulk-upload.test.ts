// Swift's bulk upload (`PUT ?extract-archive=`) through python-swiftclient (the swift CLI has no
// flag for it: put_object with query_string), archives made by the system tar (plain, gzip,
// bzip2, xattrs as pax headers), against a server on a loopback port.
import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addUser, call, SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';
import { python } from './swift-tools.js';
import { useServerWithScratch } from './http-kit.js';

let s!: TestServer;
let work!: string;
useServerWithScratch('coffer-bulk-upload-', (server, scratch) => ((s = server), (work = scratch)));

/** A directory tree under `work` and its archive made by the system tar (`-z`, `-j` or none). */
function archive(name: string, files: Record<string, string | Buffer>, flags: string[] = [], xattrs: Record<string, Record<string, string>> = {}): string {
  const root = join(work, `${name}-src`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  // The filesystem's user xattrs, set through python (no setfattr here); tar stores them as SCHILY.xattr pax records.
  for (const [path, attrs] of Object.entries(xattrs)) {
    const sets = Object.entries(attrs).map(([k, v]) => `os.setxattr(${JSON.stringify(join(root, path))}, ${JSON.stringify(k)}, ${JSON.stringify(v)}.encode())`);
    execFileSync(python(), ['-c', `import os\n${sets.join('\n')}`]);
  }
  const out = join(work, name);
  const xattrFlags = Object.keys(xattrs).length ? ['--xattrs', '--xattrs-include=user.*'] : [];
  execFileSync('tar', [...flags, ...xattrFlags, '-C', root, '-cf', out, ...Object.keys(files).map((p) => p.split('/')[0]!).filter((p, i, a) => a.indexOf(p) === i)]);
  return out;
}

/** put_object(…, query_string='extract-archive=FORMAT') from python-swiftclient; the answer's status, headers and body. */
function extract(container: string, file: string, format: string, headers: Record<string, string> = { Accept: 'application/json' }, user = SWIFT_USER, key = SWIFT_KEY): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  // put_object reads the answer's body and returns the ETag; its debug log carries the body.
  const script = `
import json, logging, sys
from swiftclient.client import Connection
bodies = []
class Keep(logging.Handler):
    def emit(self, record):
        if record.msg == 'RESP BODY: %s':
            bodies.append(record.args[0])
log = logging.getLogger('swiftclient')
log.setLevel(logging.DEBUG)
log.addHandler(Keep())
conn = Connection(authurl=sys.argv[1], user=sys.argv[2], key=sys.argv[3], retries=0)
r = {}
with open(sys.argv[5], 'rb') as f:
    conn.put_object(sys.argv[4] or None, None, f, headers=json.loads(sys.argv[7]), query_string='extract-archive=' + sys.argv[6], response_dict=r)
body = bodies[-1] if bodies else b''
print(json.dumps({'status': r['status'], 'headers': r['headers'], 'body': body.decode() if isinstance(body, bytes) else body}))
`;
  const py = join(work, 'extract.py');
  writeFileSync(py, script);
  return new Promise((resolve, reject) => {
    execFile(python(), [py, s.authUrl, user, key, container, file, format, JSON.stringify(headers)], { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`python: ${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as { status: number; headers: Record<string, string>; body: string });
    });
  });
}

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

describe('bulk upload (?extract-archive=) through python-swiftclient', () => {
  it('extracts a tar into a container: each regular file an object, types guessed, directories skipped', async () => {
    const tar = archive('plain.tar', { 'docs/a.txt': 'alpha\n', 'docs/deep/b.json': '{"b":1}', 'top.html': '<p>x</p>' });
    const r = await extract('plain', tar, 'tar');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual({ 'Response Status': '201 Created', 'Response Body': '', 'Number Files Created': 3, Errors: [] });
    const listing = JSON.parse((await call(s, 'GET', '/plain?format=json')).text) as { name: string; hash: string; content_type: string }[];
    expect(listing.map((o) => [o.name, o.content_type])).toEqual([
      ['docs/a.txt', 'text/plain'],
      ['docs/deep/b.json', 'application/json'],
      ['top.html', 'text/html'],
    ]);
    expect(listing[0]!.hash).toBe(md5('alpha\n'));
  });

  it('extracts tar.gz and tar.bz2 under a prefix, and at the account top level makes containers from the first path segment', async () => {
    const gz = archive('p.tar.gz', { 'one.txt': '1' }, ['-z']);
    expect(JSON.parse((await extract('zipped/some/prefix', gz, 'tar.gz')).body)).toMatchObject({ 'Number Files Created': 1, 'Response Status': '201 Created' });
    expect((await call(s, 'GET', '/zipped/some/prefix/one.txt')).text).toBe('1');
    const bz = archive('a.tar.bz2', { 'madec1/x.txt': 'x', 'madec2/y/z.txt': 'z', 'ignored.txt': 'top level' }, ['-j']);
    const r = await extract('', bz, 'tar.bz2', {});
    // No Accept: plain text, Swift's default.
    expect(r.headers['content-type']).toBe('text/plain');
    expect(r.body).toBe('Number Files Created: 2\nResponse Body: \nResponse Status: 201 Created\nErrors:\n');
    expect((await call(s, 'GET', '/madec2/y/z.txt')).text).toBe('z');
    expect((await call(s, 'HEAD', '/ignored.txt')).status).toBe(404);
  });

  it('answers the XML report in the XML type Accept asked for (text/xml or application/xml), as Swift\'s bulk middleware', async () => {
    const tar = archive('x.tar', { 'x.txt': 'x' });
    for (const type of ['text/xml', 'application/xml']) {
      const r = await extract(`xmltype-${type.split('/')[0]}`, tar, 'tar', { Accept: type });
      expect([r.status, r.headers['content-type']]).toEqual([200, type]);
      // (The XML declaration comes only ahead of a keep-alive, as Swift's.)
      expect(r.body).toMatch(/^<extract>\n<number_files_created>1<\/number_files_created>/);
    }
  });

  it('sets metadata from the request and from xattrs (user.meta.*, user.mime_type) in pax headers, as Swift', async () => {
    const tar = archive('x.tar', { 'c/m.txt': 'meta' }, [], { 'c/m.txt': { 'user.meta.color': 'red', 'user.mime_type': 'application/x-custom', 'user.other': 'ignored' } });
    const r = await extract('meta', tar, 'tar', { Accept: 'application/json', 'X-Object-Meta-Source': 'bulk', 'X-Delete-After': '3600' });
    expect(JSON.parse(r.body)).toMatchObject({ 'Number Files Created': 1 });
    const head = await call(s, 'HEAD', '/meta/c/m.txt');
    expect(head.headers.get('content-type')).toBe('application/x-custom');
    expect(head.headers.get('x-object-meta-color')).toBe('red');
    expect(head.headers.get('x-object-meta-source')).toBe('bulk');
    expect(head.headers.get('x-object-meta-other')).toBeNull();
    expect(Number(head.headers.get('x-delete-at'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('reports each file a quota refuses (413) and the call as 400, the others stored', async () => {
    await call(s, 'PUT', '/quota', { headers: { 'X-Container-Meta-Quota-Count': '2' } });
    const tar = archive('q.tar', { 'f1.txt': '1', 'f2.txt': '2', 'f3.txt': '3' });
    const r = await extract('quota', tar, 'tar');
    expect(JSON.parse(r.body)).toEqual({ 'Response Status': '400 Bad Request', 'Response Body': '', 'Number Files Created': 2, Errors: [['quota/f3.txt', '413 Request Entity Too Large']] });
  });

  it('decides each container and file for the caller: another account is refused per path unless a write ACL lets it', async () => {
    const other = await addUser(s, 'test$bulkother', 'bulk-other-key');
    await call(s, 'PUT', '/guarded');
    const tar = archive('g.tar', { 'f.txt': 'f' });
    // Through the owner's storage URL, as a client with the other account's token would send it.
    const viaOwner = await call(s, 'PUT', '/guarded?extract-archive=tar', { body: readFileSync(tar), token: other.token, headers: { Accept: 'application/json' } });
    expect(JSON.parse(viaOwner.text)).toEqual({
      'Response Status': '400 Bad Request',
      'Response Body': '',
      'Number Files Created': 0,
      Errors: [[`/v1/AUTH_${encodeURIComponent('test$tester')}/guarded`, '403 Forbidden'], ['guarded/f.txt', '403 Forbidden']],
    });
    await call(s, 'POST', '/guarded', { headers: { 'X-Container-Write': 'test$bulkother' } });
    const allowed = await call(s, 'PUT', '/guarded?extract-archive=tar', { body: readFileSync(tar), token: other.token, headers: { Accept: 'application/json' } });
    expect(JSON.parse(allowed.text)).toMatchObject({ 'Number Files Created': 1, 'Response Status': '201 Created' });
  });

  it('answers anonymous callers, bad archives and unknown formats as Swift', async () => {
    const tar = archive('anon.tar', { 'f.txt': 'f' });
    const anon = await call(s, 'PUT', '/anon?extract-archive=tar', { body: readFileSync(tar), token: null });
    expect(anon.status).toBe(200);
    expect(anon.text).toBe('Number Files Created: 0\nResponse Body: \nResponse Status: 401 Unauthorized\nErrors:\n');
    writeFileSync(join(work, 'junk.bin'), randomBytes(2048));
    expect(JSON.parse((await extract('junk', join(work, 'junk.bin'), 'tar')).body)).toMatchObject({ 'Response Status': '400 Bad Request', 'Response Body': 'Invalid Tar File: invalid header' });
    expect(JSON.parse((await extract('junk', tar, 'tar.gz')).body)).toMatchObject({ 'Response Body': 'Invalid Tar File: not a gzip file' });
    const bad = await call(s, 'PUT', '/junk?extract-archive=zip', { body: readFileSync(tar) });
    expect([bad.status, bad.text]).toEqual([400, 'Unsupported archive format']);
  });

  it('streams a large archive member through (48 MiB in a tar.gz) and stores it whole', async () => {
    const big = randomBytes(48 << 20);
    const tar = archive('big.tar.gz', { 'big/blob.bin': big }, ['-z']);
    const r = await extract('', tar, 'tar.gz');
    expect(JSON.parse(r.body)).toMatchObject({ 'Number Files Created': 1, Errors: [] });
    const head = await call(s, 'HEAD', '/big/blob.bin');
    expect(head.headers.get('etag')).toBe(md5(big));
    expect(head.headers.get('content-length')).toBe(String(big.length));
  }, 120_000);
});
