// Swift's object versioning (X-Versions-Enabled, `?versions`, `?version-id=`) through the real
// clients: the `swift` CLI (post -H, upload --object-name, list --versions, download/delete
// --version-id) and python-swiftclient, against a server on a loopback port. The versions are
// the engine's, the ones S3 versioning keeps.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { ACCOUNT, call, SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';
import { useServerWithScratch } from './http-kit.js';
import { swiftClientEnv } from './swift-tools.js';

let s!: TestServer;
let work!: string;
useServerWithScratch('coffer-versioning-', (server, scratch) => ((s = server), (work = scratch)));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[]): Promise<Run> {
  const env = swiftClientEnv({ ST_AUTH: s.authUrl, ST_USER: SWIFT_USER, ST_KEY: SWIFT_KEY });
  return new Promise((resolve) => {
    execFile(file, args, { cwd: work, env, timeout: 50_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function swift(...args: string[]): Promise<string> {
  const r = await run('swift', args);
  expect(r.code, `swift ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The python that has swiftclient: the `swift` script's interpreter. */
function python(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = join(dir, 'swift');
    if (!existsSync(p)) continue;
    const m = /^#!\s*(\S+)/.exec(readFileSync(p, 'utf8').split('\n')[0] ?? '');
    if (m && existsSync(m[1]!)) return m[1]!;
  }
  return '/usr/bin/python3';
}

async function py(script: string): Promise<Record<string, unknown>> {
  const file = join(work, `v-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, script);
  const r = await run(python(), [file, s.authUrl, SWIFT_USER, SWIFT_KEY]);
  expect(r.code, `python: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

const PY_HEAD = `
import json, sys
from swiftclient.client import Connection, ClientException
conn = Connection(authurl=sys.argv[1], user=sys.argv[2], key=sys.argv[3], retries=0)
def put(c, o, data):
    r = {}
    conn.put_object(c, o, data, response_dict=r)
    return r['headers'].get('x-object-version-id')
def status(f):
    try:
        f()
        return 200
    except ClientException as e:
        return e.http_status
`;

describe('object versioning (X-Versions-Enabled) with python-swiftclient', () => {
  it('keeps every version, reads and deletes each by id, and lists them', async () => {
    const out = await py(`${PY_HEAD}
conn.put_container('pyv', headers={'X-Versions-Enabled': 'true'})
enabled = conn.head_container('pyv').get('x-versions-enabled')
v1 = put('pyv', 'doc', b'first')
v2 = put('pyv', 'doc', b'second')
h, body = conn.get_object('pyv', 'doc')
old_h, old = conn.get_object('pyv', 'doc', query_string='version-id=' + v1)
r = {}
conn.delete_object('pyv', 'doc', response_dict=r)
marker = r['headers'].get('x-object-version-id')
gone = status(lambda: conn.get_object('pyv', 'doc'))
marker_read = status(lambda: conn.get_object('pyv', 'doc', query_string='version-id=' + marker))
_, listing = conn.get_container('pyv', query_string='versions')
r2 = {}
conn.delete_object('pyv', 'doc', query_string='version-id=' + v1, response_dict=r2)
_, after = conn.get_container('pyv', query_string='versions')
print(json.dumps(dict(enabled=enabled, v1=v1, v2=v2, current=body.decode(), current_id=h.get('x-object-version-id'),
  old=old.decode(), old_id=old_h.get('x-object-version-id'), marker=marker, gone=gone, marker_read=marker_read,
  listing=[[e['name'], e['version_id'], e['is_latest'], e['content_type'], e['bytes']] for e in listing],
  deleted_id=r2['headers'].get('x-object-version-id'), after=[e['version_id'] for e in after])))
`);
    expect(out.enabled).toBe('True');
    expect(out.v1).toMatch(/^[\w-]{32}$/);
    expect(out.v2).not.toBe(out.v1);
    expect([out.current, out.current_id]).toEqual(['second', out.v2]);
    expect([out.old, out.old_id]).toEqual(['first', out.v1]);
    expect(out.gone).toBe(404);
    expect(out.marker_read).toBe(404);
    expect(out.listing).toEqual([
      ['doc', out.marker, true, 'application/x-deleted;swift_versions_deleted=1', 0],
      ['doc', out.v2, false, 'application/octet-stream', 6],
      ['doc', out.v1, false, 'application/octet-stream', 5],
    ]);
    expect(out.deleted_id).toBe(out.v1);
    expect(out.after).toEqual([out.marker, out.v2]);
    // swiftclient's post_object takes no query: the raw request, refused as Swift does.
    const post = await call(s, 'POST', `/pyv/doc?version-id=${String(out.v2)}`);
    expect([post.status, post.text]).toEqual([400, 'POST to a specific version is not allowed']);
    // The same versions S3 sees: one engine, one set of ids.
    const page = s.engine.listVersions(Engine.ref(ACCOUNT, 'pyv'));
    expect(page.entries.map((e) => (e.kind === 'version' ? e.version.versionId : e.prefix))).toEqual([out.marker, out.v2]);
  });

  it('suspended (X-Versions-Enabled: false) writes the null version and keeps the older ones', async () => {
    const out = await py(`${PY_HEAD}
conn.put_container('pys', headers={'X-Versions-Enabled': 'true'})
v1 = put('pys', 'o', b'kept')
conn.post_container('pys', headers={'X-Versions-Enabled': 'false'})
flag = conn.head_container('pys').get('x-versions-enabled')
unnamed = put('pys', 'o', b'null one')
h, _ = conn.get_object('pys', 'o')
_, listing = conn.get_container('pys', query_string='versions')
unversioned = status(lambda: conn.get_object('pys', 'o', query_string='version-id=' + v1))
conn.put_container('plain')
put('plain', 'x', b'x')
plain_named = status(lambda: conn.get_object('plain', 'x', query_string='version-id=' + v1))
plain_null = status(lambda: conn.get_object('plain', 'x', query_string='version-id=null'))
print(json.dumps(dict(flag=flag, unnamed=unnamed, current_id=h.get('x-object-version-id'),
  listing=[e['version_id'] for e in listing], v1=v1, unversioned=unversioned, plain_named=plain_named, plain_null=plain_null)))
`);
    expect(out.flag).toBe('False');
    expect(out.unnamed).toBeNull();
    expect(out.current_id).toBe('null');
    expect(out.listing).toEqual(['null', out.v1]);
    expect(out.unversioned).toBe(200);
    // A container never versioned has no versions to name, only the null one.
    expect(out.plain_named).toBe(400);
    expect(out.plain_null).toBe(200);
  });
});

describe('counts in a versioned container, as Swift 2.30', () => {
  it('X-Container-Object-Count and the account listing count the current objects; bytes used counts every version', async () => {
    const out = await py(`${PY_HEAD}
conn.put_container('cnt', headers={'X-Versions-Enabled': 'true'})
put('cnt', 'o', b'first')
put('cnt', 'o', b'second')
put('cnt', 'gone', b'x')
conn.delete_object('cnt', 'gone')
h = conn.head_container('cnt')
_, containers = conn.get_account()
row = [c for c in containers if c['name'] == 'cnt'][0]
_, listing = conn.get_container('cnt')
print(json.dumps(dict(count=h['x-container-object-count'], bytes=h['x-container-bytes-used'], row=row['count'], listed=len(listing))))
`);
    // Swift: its versions live in a hidden container, whose bytes X-Container-Bytes-Used adds (Swift 2.30 answered 1 and 12 here).
    expect(out).toEqual({ count: '1', bytes: String('first'.length + 'second'.length + 1), row: 1, listed: 1 });
  });
});

describe('legacy versioned writes (X-Versions-Location, X-History-Location)', () => {
  it('stack mode archives each overwritten version and a delete brings the previous one back', async () => {
    const out = await py(`${PY_HEAD}
conn.put_container('archive')
conn.put_container('stack', headers={'X-Versions-Location': 'archive'})
location = conn.head_container('stack').get('x-versions-location')
for body in (b'one', b'two', b'three'):
    put('stack', 'doc', body)
_, archived = conn.get_container('archive')
conn.delete_object('stack', 'doc')
_, back = conn.get_object('stack', 'doc')
conn.delete_object('stack', 'doc')
_, back2 = conn.get_object('stack', 'doc')
conn.delete_object('stack', 'doc')
gone = status(lambda: conn.get_object('stack', 'doc'))
_, left = conn.get_container('archive')
both = status(lambda: conn.put_container('both', headers={'X-Versions-Location': 'a', 'X-History-Location': 'b'}))
mixed = status(lambda: conn.post_container('stack', headers={'X-Versions-Enabled': 'true'}))
print(json.dumps(dict(location=location, archived=[e['name'] for e in archived], back=back.decode(), back2=back2.decode(),
  gone=gone, left=len(left), both=both, mixed=mixed)))
`);
    expect(out.location).toBe('archive');
    // '<name length, 3 hex digits><name>/<timestamp>', oldest first.
    expect(out.archived).toEqual([expect.stringMatching(/^003doc\/\d{10}\.\d{5}$/), expect.stringMatching(/^003doc\//)]);
    expect([out.back, out.back2, out.gone, out.left]).toEqual(['two', 'one', 404, 0]);
    expect([out.both, out.mixed]).toEqual([400, 400]);
  });

  it('history mode keeps the deleted object and a delete marker in the archive; the swift CLI sets it', async () => {
    await swift('post', 'hist-archive');
    await swift('post', '-H', 'X-History-Location: hist-archive', 'hist');
    expect(await swift('stat', 'hist')).toMatch(/X-History-Location: hist-archive/);
    writeFileSync(join(work, 'h.txt'), 'kept\n');
    await swift('upload', '--object-name', 'h.txt', 'hist', 'h.txt');
    await swift('delete', 'hist', 'h.txt');
    const archived = JSON.parse(await swift('list', '--json', 'hist-archive')) as { name: string; content_type: string; bytes: number }[];
    expect(archived.map((e) => [e.name.slice(0, 10), e.content_type, e.bytes])).toEqual([
      ['005h.txt/1', 'text/plain', 5],
      ['005h.txt/1', 'application/x-deleted;swift_versions_deleted=1', 0],
    ]);
    expect(await swift('download', 'hist-archive', archived[0]!.name, '-o', '-')).toBe('kept\n');
  }, 240_000);
});

describe('object versioning with the swift CLI', () => {
  it('post -H enables it; list, download and delete take --versions / --version-id', async () => {
    await swift('post', '-H', 'X-Versions-Enabled: true', 'cli');
    expect(await swift('stat', 'cli')).toMatch(/X-Versions-Enabled: True/);
    writeFileSync(join(work, 'f.txt'), 'one\n');
    await swift('upload', '--object-name', 'a.txt', 'cli', 'f.txt');
    writeFileSync(join(work, 'f.txt'), 'two\n');
    await swift('upload', '--object-name', 'a.txt', 'cli', 'f.txt');
    const listing = JSON.parse(await swift('list', '--versions', '--json', 'cli')) as { name: string; version_id: string; is_latest: boolean }[];
    expect(listing.map((e) => [e.name, e.is_latest])).toEqual([['a.txt', true], ['a.txt', false]]);
    const older = listing[1]!.version_id;
    expect(await swift('download', 'cli', 'a.txt', '--version-id', older, '-o', '-')).toBe('one\n');
    await swift('delete', 'cli', 'a.txt', '--version-id', older);
    const left = JSON.parse(await swift('list', '--versions', '--json', 'cli')) as { version_id: string }[];
    expect(left.map((e) => e.version_id)).toEqual([listing[0]!.version_id]);
    expect(await swift('download', 'cli', 'a.txt', '-o', '-')).toBe('two\n');
    // Eight CLI starts (a python start-up each) on a loaded machine.
  }, 240_000);

  it('COPY ?version-id restores a version as the newest one, with its metadata', async () => {
    const out = await py(`${PY_HEAD}
conn.put_container('pyc', headers={'X-Versions-Enabled': 'true'})
r = {}
conn.put_object('pyc', 'o', b'old', headers={'X-Object-Meta-Tag': 'old'}, response_dict=r)
v1 = r['headers']['x-object-version-id']
put('pyc', 'o', b'new')
parsed, http = conn.http_connection()
http.request('COPY', parsed.path + '/pyc/o?version-id=' + v1, '', {'X-Auth-Token': conn.token, 'Destination': 'pyc/o'})
resp = http.getresponse(); resp.read()
h, body = conn.get_object('pyc', 'o')
_, listing = conn.get_container('pyc', query_string='versions')
print(json.dumps(dict(status=resp.status, body=body.decode(), tag=h.get('x-object-meta-tag'), count=len(listing))))
`);
    expect(out).toEqual({ status: 201, body: 'old', tag: 'old', count: 3 });
  });

  it('/info offers object_versioning', async () => {
    const r = await call(s, 'GET', '/info', { base: s.url });
    expect(JSON.parse(r.text) as Record<string, unknown>).toHaveProperty('object_versioning');
  });
});
