// Real clients against the native API: the `swift` command (python-swiftclient 4.x) and the
// python `swiftclient` library, talking to a server started in-process on a loopback port.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { ACCOUNT, call, SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';
import { python, statFields, swiftClientEnv } from './swift-tools.js';
import { useServerWithScratch } from './http-kit.js';

let s!: TestServer;
let work!: string;
useServerWithScratch('coffer-swift-cli-', (server, scratch) => ((s = server), (work = scratch)));

const md5 = (b: string | Buffer) => createHash('md5').update(b).digest('hex');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment for the clients: only our credentials, no proxies, no OpenStack settings. */
const clientEnv = () => swiftClientEnv({ ST_AUTH: s.authUrl, ST_USER: SWIFT_USER, ST_KEY: SWIFT_KEY });

function run(file: string, args: string[], opts: { cwd?: string; input?: string; timeout?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: opts.cwd ?? work, env: clientEnv(), timeout: opts.timeout ?? 30_000, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
        resolve({ code, stdout: stdout.toString('utf8'), stderr: stderr.toString('utf8') });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** Runs `swift …`; fails the test with its output unless it exits 0 (or `expectCode`). */
async function swift(args: string[], expectCode = 0): Promise<Run> {
  const r = await run('swift', args);
  expect(r.code, `swift ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(expectCode);
  return r;
}

/** Raw bytes of `swift … -o -` (stdout as a Buffer). */
function swiftBytes(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('swift', args, { cwd: work, env: clientEnv(), timeout: 30_000, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`swift ${args.join(' ')}: ${stderr.toString()}`));
      else resolve(stdout);
    });
  });
}

/** `Key: value` lines of `swift stat` (keys right-aligned) as a map. */

async function py(script: string, args: string[] = []): Promise<unknown> {
  const file = join(work, `script-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, script);
  const r = await run(python(), [file, s.authUrl, SWIFT_USER, SWIFT_KEY, ...args], { timeout: 50_000 });
  expect(r.code, `python: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

function randomish(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >> 16;
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
describe('swift CLI', () => {
  it('capabilities reads /info', async () => {
    const [r, text] = await Promise.all([swift(['capabilities', '--json']), swift(['capabilities'])]);
    const caps = JSON.parse(r.stdout) as { swift: Record<string, unknown>; tempauth: Record<string, unknown> };
    expect(caps.swift).toMatchObject({ container_listing_limit: 10000, max_meta_count: 90, max_object_name_length: 1024 });
    // What works is advertised (account ACLs are served: X-Account-Access-Control), and only that.
    expect(caps.tempauth).toEqual({ account_acls: true });
    expect(Object.keys(caps).sort()).toEqual(
      ['account_quotas', 'bulk_delete', 'bulk_upload', 'container_quotas', 'formpost', 'object_versioning', 'slo', 'staticweb', 'swift', 'symlink', 'tempauth', 'tempurl', 'versioned_writes'],
    );
    expect(text.stdout).toContain('Core: swift');
    expect(text.stdout).toContain('container_listing_limit: 10000');
  });

  it('container names up to 256 bytes, as Swift\'s max_container_name_length (it was 255): made, listed and filled by the CLI; 257 refused', async () => {
    const caps = JSON.parse((await swift(['capabilities', '--json'])).stdout) as { swift: { max_container_name_length: number } };
    expect(caps.swift.max_container_name_length).toBe(256);
    const name = `n256-${'é'.repeat(125)}`; // 5 + 250 bytes + 1
    const longest = `${name}x`;
    expect(Buffer.byteLength(longest)).toBe(256);
    await swift(['post', longest]);
    writeFileSync(join(work, 'in-long.txt'), 'long');
    await swift(['upload', '--object-name', 'o', longest, 'in-long.txt']);
    expect((await swift(['list', '--prefix', 'n256-'])).stdout.trim()).toBe(longest);
    expect((await swift(['list', longest])).stdout.trim()).toBe('o');
    const refused = await swift(['post', `${longest}y`], 1);
    expect(refused.stderr).toContain('Container name length of 257 longer than 256');
    // The account's counts and listings are the later tests'.
    await swift(['delete', longest]);
  });

  it('stat of the account', async () => {
    const f = statFields((await swift(['stat'])).stdout);
    expect(f.Account).toBe(`AUTH_${ACCOUNT}`);
    expect(f.Containers).toBe('0');
    expect(f.Objects).toBe('0');
    expect(f.Bytes).toBe('0');
  });

  it('post creates a container and sets metadata and the read ACL; stat shows them', async () => {
    await swift(['post', 'cli']);
    await swift(['post', '-m', 'Color:Blue', '-m', 'Size:Large', '-r', '.r:*,.rlistings', 'cli']);
    const f = statFields((await swift(['stat', 'cli'])).stdout);
    expect(f.Container).toBe('cli');
    expect(f.Objects).toBe('0');
    expect(f['Read ACL']).toBe('.r:*,.rlistings');
    expect(f['Meta Color']).toBe('Blue');
    expect(f['Meta Size']).toBe('Large');
    expect(f['X-Storage-Policy']).toBe('default-placement');
    // Removing one metadata item keeps the other.
    await swift(['post', '-m', 'Size:', 'cli']);
    const g = statFields((await swift(['stat', 'cli'])).stdout);
    expect(g['Meta Size']).toBeUndefined();
    expect(g['Meta Color']).toBe('Blue');
  });

  it('container ACLs cleaned as Swift\'s clean_acl: an unknown .designator without a colon is stored, with one (or a referrer to write) refused in Swift\'s words', async () => {
    // Stored as Swift 2.30 stores them (an unknown designator had been refused, 400).
    await swift(['post', '-r', '.bogus , .referrer : *.example.com,,bob', '-w', '.rlistings', 'acl-clean']);
    const f = statFields((await swift(['stat', 'acl-clean'])).stdout);
    expect([f['Read ACL'], f['Write ACL']]).toEqual(['.bogus,.r:.example.com,bob', '.rlistings']);
    for (const [args, reason] of [
      [['-r', '.bogus:x'], "Unknown designator '.bogus' in ACL: '.bogus:x'"],
      [['-r', '.r:- .'], "No host/domain value after referrer designation in ACL: '.r:- .'"],
      [['-w', '.r:*'], "Referrers not allowed in write ACL: '.r:*'"],
    ] as const) {
      const r = await swift(['post', ...args, 'acl-clean'], 1);
      expect(r.stderr, args.join(' ')).toContain('400');
      // The CLI prints the body's first 60 bytes.
      expect(r.stderr, args.join(' ')).toContain(reason.slice(0, 50));
    }
    const g = statFields((await swift(['stat', 'acl-clean'])).stdout);
    expect([g['Read ACL'], g['Write ACL']]).toEqual(['.bogus,.r:.example.com,bob', '.rlistings']);
    // The account's counts and listings are the later tests'.
    await swift(['delete', 'acl-clean']);
  });

  it('upload of a file with --object-name, then stat of the object', async () => {
    const file = join(work, 'hello.txt');
    writeFileSync(file, 'hello from the swift CLI\n');
    const r = await swift(['upload', 'cli', 'hello.txt', '--object-name', 'docs/hello.txt']);
    expect(r.stdout.trim()).toBe('docs/hello.txt');
    const f = statFields((await swift(['stat', 'cli', 'docs/hello.txt'])).stdout);
    expect(f.Object).toBe('docs/hello.txt');
    expect(f['Content Length']).toBe('25');
    expect(f.ETag).toBe(md5('hello from the swift CLI\n'));
    expect(f['Content Type']).toMatch(/^text\/plain/);
    expect(f['Meta Mtime']).toMatch(/^\d+\.\d+$/);
    // The anonymous read ACL set above makes it public.
    const anon = await fetch(`${s.storageUrl}/cli/docs/hello.txt`);
    expect(anon.status).toBe(200);
    expect(await anon.text()).toBe('hello from the swift CLI\n');
  });

  it('upload of a directory tree, as is and under another name; list with --prefix/--delimiter/--long/--lh', async () => {
    const tree = join(work, 'tree');
    mkdirSync(join(tree, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(tree, 'a.txt'), 'A');
    writeFileSync(join(tree, 'sub', 'b.txt'), 'BB');
    writeFileSync(join(tree, 'sub', 'deeper', 'big.bin'), randomish(300_000, 7));
    const up = await swift(['upload', 'tree-c', 'tree']);
    expect(up.stdout.trim().split('\n').sort()).toEqual(['tree/a.txt', 'tree/sub/b.txt', 'tree/sub/deeper/big.bin']);
    await swift(['upload', 'tree-c', 'tree', '--object-name', 'copy']);

    // Read-only listings run side by side (each CLI start costs a python start-up).
    const lines = (r: Run) => r.stdout.trim().split('\n');
    const [all, prefixed, delimited, both, longRun, lhRun, accountLong, accountLh, accountPlain, accountPrefixed] = await Promise.all([
      swift(['list', 'tree-c']),
      swift(['list', 'tree-c', '--prefix', 'tree/sub']),
      swift(['list', 'tree-c', '--delimiter', '/']),
      swift(['list', 'tree-c', '--prefix', 'tree/', '--delimiter', '/']),
      swift(['list', 'tree-c', '--long', '--prefix', 'tree/']),
      swift(['list', 'tree-c', '--lh', '--prefix', 'tree/']),
      swift(['list', '--long']),
      swift(['list', '--lh']),
      swift(['list']),
      swift(['list', '--prefix', 'tr']),
    ]);
    expect(lines(all)).toEqual(['copy/a.txt', 'copy/sub/b.txt', 'copy/sub/deeper/big.bin', 'tree/a.txt', 'tree/sub/b.txt', 'tree/sub/deeper/big.bin']);
    expect(lines(prefixed)).toEqual(['tree/sub/b.txt', 'tree/sub/deeper/big.bin']);
    expect(lines(delimited)).toEqual(['copy/', 'tree/']);
    expect(lines(both)).toEqual(['tree/a.txt', 'tree/sub/']);

    const long = lines(longRun);
    expect(long).toHaveLength(4);
    expect(long[0]).toMatch(/^\s*1 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\s+text\/plain\s+tree\/a\.txt$/);
    expect(long[2]).toMatch(/^\s*300000 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\s+application\/octet-stream\s+tree\/sub\/deeper\/big\.bin$/);
    expect(long[3]!.trim()).toBe('300003');
    const lh = lines(lhRun);
    expect(lh[0]).toMatch(/^\s*1 \d{4}-\d{2}-\d{2} .*tree\/a\.txt$/);
    expect(lh[2]).toMatch(/^\s*29[23]K \d{4}-\d{2}-\d{2} .*tree\/sub\/deeper\/big\.bin$/);
    expect(lh[3]!.trim()).toMatch(/^29[23]K$/);

    expect(lines(accountLong).find((l) => / tree-c$/.test(l))).toMatch(/^\s*6\s+600006 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} default-placement tree-c$/);
    expect(accountLh.stdout).toMatch(/\s6\s+58[56]K \d{4}-\d{2}-\d{2} .*tree-c/);
    expect(lines(accountPlain)).toEqual(['cli', 'tree-c']);
    expect(lines(accountPrefixed)).toEqual(['tree-c']);
  });

  it('download: byte-identical to a file, to a directory, and to stdout with -o -', async () => {
    const original = randomish(300_000, 7);
    const out = join(work, 'downloaded.bin');
    const dir = join(work, 'dl-dir');
    const [, , stdoutBig, stdoutSmall] = await Promise.all([
      swift(['download', 'tree-c', 'tree/sub/deeper/big.bin', '-o', out]),
      swift(['download', 'tree-c', '--prefix', 'tree/', '-D', dir]),
      swiftBytes(['download', 'tree-c', 'tree/sub/deeper/big.bin', '-o', '-']),
      swiftBytes(['download', 'cli', 'docs/hello.txt', '-o', '-']),
    ]);
    expect((await readFile(out)).equals(original)).toBe(true);
    expect(readFileSync(join(dir, 'tree', 'a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(join(dir, 'tree', 'sub', 'b.txt'), 'utf8')).toBe('BB');
    expect(readFileSync(join(dir, 'tree', 'sub', 'deeper', 'big.bin')).equals(original)).toBe(true);
    expect(existsSync(join(dir, 'copy'))).toBe(false);

    expect(stdoutBig.equals(original)).toBe(true);
    expect(stdoutSmall.toString()).toBe('hello from the swift CLI\n');
    // A missing object is an error.
    const missing = await run('swift', ['download', 'tree-c', 'nope', '-o', '-']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/404|[Nn]ot [Ff]ound/);
  });

  it('post on an object replaces its metadata', async () => {
    await swift(['post', '-m', 'Reviewed:yes', 'cli', 'docs/hello.txt']);
    const f = statFields((await swift(['stat', 'cli', 'docs/hello.txt'])).stdout);
    expect(f['Meta Reviewed']).toBe('yes');
    expect(f['Meta Mtime']).toBeUndefined();
    expect(f.ETag).toBe(md5('hello from the swift CLI\n'));
    expect(s.engine.headObject(Engine.ref(ACCOUNT, 'cli'), 'docs/hello.txt').meta).toEqual({ reviewed: 'yes' });
  });

  it('copy --destination /c2/o (metadata kept and extended; --fresh-metadata drops it)', async () => {
    await swift(['post', 'cli-dest']);
    const r = await swift(['copy', '--destination', '/cli-dest/copied.txt', '-m', 'Extra:1', 'cli', 'docs/hello.txt']);
    expect(r.stdout).toContain('copied to /cli-dest/copied.txt');
    const f = statFields((await swift(['stat', 'cli-dest', 'copied.txt'])).stdout);
    expect(f.ETag).toBe(md5('hello from the swift CLI\n'));
    expect(f['Meta Reviewed']).toBe('yes');
    expect(f['Meta Extra']).toBe('1');
    expect((await swiftBytes(['download', 'cli-dest', 'copied.txt', '-o', '-'])).toString()).toBe('hello from the swift CLI\n');

    await swift(['copy', '--destination', '/cli-dest/fresh.txt', '--fresh-metadata', '-m', 'Only:me', 'cli', 'docs/hello.txt']);
    const g = statFields((await swift(['stat', 'cli-dest', 'fresh.txt'])).stdout);
    expect(g['Meta Reviewed']).toBeUndefined();
    expect(g['Meta Only']).toBe('me');

    // A missing source fails.
    const bad = await run('swift', ['copy', '--destination', '/cli-dest/x', 'cli', 'no/such/object']);
    expect(bad.code).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toMatch(/404|[Nn]ot [Ff]ound/);
    // Without a destination, copy updates the object's metadata in place.
    await swift(['copy', '-m', 'InPlace:1', 'cli-dest', 'copied.txt']);
    const h = statFields((await swift(['stat', 'cli-dest', 'copied.txt'])).stdout);
    expect(h['Meta Inplace'] ?? h['Meta InPlace']).toBe('1');
    expect(h['Meta Extra']).toBe('1');
  });

  it('delete of an object, then of a whole container (its objects first)', async () => {
    await swift(['delete', 'tree-c', 'tree/a.txt']);
    expect((await swift(['list', 'tree-c'])).stdout).not.toContain('tree/a.txt\n');
    const gone = await run('swift', ['stat', 'tree-c', 'tree/a.txt']);
    expect(gone.code).not.toBe(0);
    const r = await swift(['delete', 'tree-c']);
    expect(r.stdout).toContain('tree/sub/b.txt');
    const stat = await run('swift', ['stat', 'tree-c']);
    expect(stat.code).not.toBe(0);
    expect(stat.stderr).toMatch(/Container 'tree-c' not found/);
    expect((await call(s, 'HEAD', '/tree-c')).status).toBe(404);
    const f = statFields((await swift(['stat'])).stdout);
    expect(f.Containers).toBe('2');
  });

  it('account stat shows the counts after the above', async () => {
    const f = statFields((await swift(['stat'])).stdout);
    expect(f.Containers).toBe('2');
    expect(Number(f.Objects)).toBe(3);
    expect(f['X-Account-Bytes-Used-Actual']).toBeDefined();
  });
});

// ---------------------------------------------------------------------------------------------
describe('python-swiftclient (swiftclient.client.Connection)', () => {
  it('put_container, put_object with headers, get_object, head_object, post_object, get_container, delete_object', async () => {
    const out = (await py(`
import sys, json, hashlib
from swiftclient.client import Connection, ClientException
auth, user, key = sys.argv[1:4]
conn = Connection(authurl=auth, user=user, key=key, retries=0)
r = {}
conn.put_container('py', headers={'X-Container-Meta-Owner': 'python'})
r['container_meta'] = conn.head_container('py').get('x-container-meta-owner')
data = b'python bytes \\x00\\xff' * 1000
r['put_etag'] = conn.put_object('py', 'dir/obj.bin', contents=data, content_type='application/x-py',
                                headers={'X-Object-Meta-Color': 'Red', 'X-Object-Meta-Multi-Word': 'a b'})
r['md5'] = hashlib.md5(data).hexdigest()
hdrs, body = conn.get_object('py', 'dir/obj.bin')
r['get_same'] = body == data
r['get_headers'] = {k: hdrs.get(k) for k in ['content-type', 'etag', 'content-length', 'x-object-meta-color', 'x-object-meta-multi-word', 'accept-ranges']}
hdrs, body = conn.get_object('py', 'dir/obj.bin', headers={'Range': 'bytes=3-7'})
r['range'] = body.decode('latin1')
h = conn.head_object('py', 'dir/obj.bin')
r['head_length'] = h.get('content-length')
from urllib.parse import quote
conn.put_object('py', 'pct', contents=b'x', headers={'X-Object-Meta-Pct': quote('Grüße ✓')})
r['pct'] = conn.head_object('py', 'pct').get('x-object-meta-pct')
conn.delete_object('py', 'pct')
conn.post_object('py', 'dir/obj.bin', headers={'X-Object-Meta-New': '1'})
h = conn.head_object('py', 'dir/obj.bin')
r['after_post'] = {k: v for k, v in h.items() if k.startswith('x-object-meta-')}
conn.put_object('py', 'dir/two.txt', contents='two', content_type='text/plain')
conn.put_object('py', 'top.txt', contents=b'', content_length=0)
hdrs, listing = conn.get_container('py', full_listing=True)
r['count'] = hdrs.get('x-container-object-count')
r['listing'] = [[o['name'], o['bytes'], o['hash'], o['content_type']] for o in listing]
r['last_modified'] = listing[0]['last_modified']
hdrs, listing = conn.get_container('py', delimiter='/', full_listing=True)
r['delimited'] = [o.get('name', o.get('subdir')) for o in listing]
hdrs, listing = conn.get_container('py', prefix='dir/', full_listing=True)
r['prefixed'] = [o['name'] for o in listing]
hdrs, containers = conn.get_account(full_listing=True)
r['containers'] = [[c['name'], c['count'], c['bytes']] for c in containers]
conn.delete_object('py', 'dir/two.txt')
try:
    conn.get_object('py', 'dir/two.txt')
    r['deleted_status'] = 200
except ClientException as e:
    r['deleted_status'] = e.http_status
try:
    conn.delete_container('py')
    r['delete_nonempty'] = 204
except ClientException as e:
    r['delete_nonempty'] = e.http_status
print(json.dumps(r))
`)) as Record<string, unknown>;
    const data = Buffer.concat(Array.from({ length: 1000 }, () => Buffer.from('python bytes \x00\xff', 'latin1')));
    expect(out.container_meta).toBe('python');
    expect(out.put_etag).toBe(md5(data));
    expect(out.md5).toBe(md5(data));
    expect(out.get_same).toBe(true);
    expect(out.get_headers).toEqual({
      'content-type': 'application/x-py',
      etag: md5(data),
      'content-length': String(data.length),
      'x-object-meta-color': 'Red',
      'x-object-meta-multi-word': 'a b',
      'accept-ranges': 'bytes',
    });
    expect(out.range).toBe('hon b');
    // Percent-encoded values are stored as received (no decoding) and decoded by the client.
    expect(out.pct).toBe('Grüße ✓');
    expect(out.head_length).toBe(String(data.length));
    expect(out.after_post).toEqual({ 'x-object-meta-new': '1' });
    expect(out.count).toBe('3');
    expect(out.listing).toEqual([
      ['dir/obj.bin', data.length, md5(data), 'application/x-py'],
      ['dir/two.txt', 3, md5('two'), 'text/plain'],
      ['top.txt', 0, md5(''), 'text/plain'],
    ]);
    expect(out.last_modified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(out.delimited).toEqual(['dir/', 'top.txt']);
    expect(out.prefixed).toEqual(['dir/obj.bin', 'dir/two.txt']);
    expect(out.containers).toContainEqual(['py', 3, data.length + 3]);
    expect(out.deleted_status).toBe(404);
    expect(out.delete_nonempty).toBe(409);
    expect(s.engine.headObject(Engine.ref(ACCOUNT, 'py'), 'dir/obj.bin').meta).toEqual({ new: '1' });
  });

  it('get_container(full_listing=True) over 10,050 objects returns them all, in order; pages are never short early', async () => {
    const ref = Engine.ref(ACCOUNT, 'many');
    await s.engine.createContainer(ACCOUNT, 'many');
    const total = 10_050;
    const name = (i: number) => `obj/${String(i).padStart(5, '0')}`;
    for (let start = 0; start < total; start += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, total - start) }, (_, k) => s.engine.putObject(ref, name(start + k), `v${start + k}`, { contentType: 'text/plain' })),
      );
    }
    expect(s.engine.getContainer(ref).usage.objects).toBe(total);

    // Over HTTP: the default page and limit=10000 are full, the next page has the rest, then empty.
    const page = async (q: string) => JSON.parse((await call(s, 'GET', `/many?format=json${q}`)).text) as { name: string }[];
    const first = await page('');
    expect(first).toHaveLength(10_000);
    expect(await page('&limit=10000')).toHaveLength(10_000);
    const rest = await page(`&marker=${encodeURIComponent(first.at(-1)!.name)}`);
    expect(rest).toHaveLength(50);
    expect(rest[0]!.name).toBe(name(10_000));
    expect(await page(`&marker=${encodeURIComponent(rest.at(-1)!.name)}`)).toEqual([]);
    expect((await call(s, 'GET', '/many?format=json&limit=10001')).status).toBe(412);

    const out = (await py(`
import sys, json
from swiftclient.client import Connection
auth, user, key = sys.argv[1:4]
conn = Connection(authurl=auth, user=user, key=key, retries=0)
hdrs, listing = conn.get_container('many', full_listing=True)
names = [o['name'] for o in listing]
sizes = []
marker = ''
while True:
    _, page = conn.get_container('many', marker=marker, limit=1000)
    sizes.append(len(page))
    if not page:
        break
    marker = page[-1]['name']
_, subdirs = conn.get_container('many', delimiter='/', full_listing=True)
_, limited = conn.get_container('many', limit=1000, full_listing=True)
print(json.dumps({'count': len(names), 'header': hdrs.get('x-container-object-count'), 'first': names[0], 'last': names[-1],
                  'sorted': names == sorted(names), 'unique': len(set(names)), 'sizes': sizes,
                  'subdirs': subdirs, 'limited': len(limited)}))
`)) as Record<string, unknown>;
    expect(out.count).toBe(total);
    expect(out.unique).toBe(total);
    expect(out.sorted).toBe(true);
    expect(out.header).toBe(String(total));
    expect(out.first).toBe(name(0));
    expect(out.last).toBe(name(total - 1));
    expect(out.sizes).toEqual([...Array<number>(10).fill(1000), 50, 0]);
    expect(out.subdirs).toEqual([{ subdir: 'obj/' }]);
    expect(out.limited).toBe(total);
  });

  it('the storage URL is /v1/AUTH_<tenant>$<account>, as Swift hands it out; TempURLs signed for it and for /swift/v1 both work', async () => {
    const out = (await py(`
import sys, json, urllib.request, urllib.error
from urllib.parse import urlparse
from swiftclient import client
from swiftclient.utils import generate_temp_url
auth, user, key = sys.argv[1:4]
url, token = client.get_auth(auth, user, key)
parsed = urlparse(url)
origin = parsed.scheme + '://' + parsed.netloc
client.post_account(url, token, {'X-Account-Meta-Temp-URL-Key': 'seekrit'})
client.put_container(url, token, 'turl')
client.put_object(url, token, 'turl', 'o.txt', b'hello', content_type='text/plain')
def fetch(path):
    try:
        with urllib.request.urlopen(origin + path) as r:
            return [r.status, r.read().decode()]
    except urllib.error.HTTPError as e:
        return [e.code, '']
native = generate_temp_url(parsed.path + '/turl/o.txt', 60, 'seekrit', 'GET')
rgw = generate_temp_url('/swift' + parsed.path + '/turl/o.txt', 60, 'seekrit', 'GET')
wrong = generate_temp_url(parsed.path + '/turl/o.txt', 60, 'other-key', 'GET')
rgw_conn = client.Connection(preauthurl=origin + '/swift' + parsed.path, preauthtoken=token, retries=0)
_, rgw_listing = rgw_conn.get_container('turl')
print(json.dumps({'path': parsed.path, 'native': fetch(native), 'rgw': fetch(rgw), 'wrong': fetch(wrong),
                  'rgw_listing': [o['name'] for o in rgw_listing], 'account': client.head_account(url, token).get('x-account-object-count')}))
`)) as { path: string; native: [number, string]; rgw: [number, string]; wrong: [number, string]; rgw_listing: string[]; account: string };
    expect(out.path).toBe(`/v1/AUTH_${ACCOUNT}`);
    expect(out.native).toEqual([200, 'hello']);
    expect(out.rgw).toEqual([200, 'hello']);
    expect(out.wrong[0]).toBe(401);
    expect(out.rgw_listing).toEqual(['o.txt']);
    expect(Number(out.account)).toBeGreaterThan(0);
    // The swift CLI's own tempurl command, given the object's path under the storage URL.
    const signed = (await swift(['tempurl', 'GET', '60', `/v1/AUTH_${ACCOUNT}/turl/o.txt`, 'seekrit'])).stdout.trim();
    const r = await fetch(`${s.url}${signed}`);
    expect([r.status, await r.text()]).toEqual([200, 'hello']);
  });

  it('get_account(delimiter=…) rolls containers up into subdirs; a multi-range get_object is multipart/byteranges', async () => {
    const out = (await py(`
import sys, json
from swiftclient import client
auth, user, key = sys.argv[1:4]
url, token = client.get_auth(auth, user, key)
for c in ('tree~a~1', 'tree~a~2', 'tree~b'):
    client.put_container(url, token, c)
_, rows = client.get_account(url, token, prefix='tree~', delimiter='~', full_listing=True)
client.put_object(url, token, 'tree~b', 'o', b'0123456789', content_type='text/x-test')
hdrs, body = client.get_object(url, token, 'tree~b', 'o', headers={'Range': 'bytes=0-1,5-6'})
print(json.dumps({'rows': [r.get('subdir') or r.get('name') for r in rows], 'type': hdrs.get('content-type'), 'body': body.decode()}))
`)) as { rows: string[]; type: string; body: string };
    expect(out.rows).toEqual(['tree~a~', 'tree~b']);
    const boundary = /^multipart\/byteranges;\s*boundary=(\S+)$/.exec(out.type)?.[1];
    expect(boundary, out.type).toBeDefined();
    expect(out.body).toBe(
      `--${boundary}\r\nContent-Type: text/x-test\r\nContent-Range: bytes 0-1/10\r\n\r\n01\r\n--${boundary}\r\nContent-Type: text/x-test\r\nContent-Range: bytes 5-6/10\r\n\r\n56\r\n--${boundary}--`,
    );
  });

  it('UTF-8 in names, Content-Type, metadata and X-Copy-From come back as sent, in HEAD and in listings (no mojibake)', async () => {
    const out = (await py(`
import sys, json
from swiftclient.client import Connection
c = Connection(authurl=sys.argv[1], user=sys.argv[2], key=sys.argv[3])
c.put_container('utf8')
c.put_object('utf8', 'Grüße/日本.txt', contents=b'x', content_type='text/plain; title=Grüße ✓', headers={'X-Object-Meta-City': 'München ✓'})
h = c.head_object('utf8', 'Grüße/日本.txt')
_, listing = c.get_container('utf8')
c.put_object('utf8', 'copy', contents=b'', headers={'X-Copy-From': '/utf8/Grüße/日本.txt'})
c.post_object('utf8', 'copy', headers={'X-Object-Meta-Town': 'Zürich ✓', 'Content-Type': 'text/x-ü'})
h2 = c.head_object('utf8', 'copy')
print(json.dumps({'type': h['content-type'], 'city': h.get('x-object-meta-city'), 'listing': [[o['name'], o['content_type']] for o in listing], 'copy': [h2['content-type'], h2.get('x-object-meta-town'), h2['etag']]}))
`)) as { type: string; city: string; listing: string[][]; copy: string[] };
    expect(out.type).toBe('text/plain; title=Grüße ✓');
    expect(out.city).toBe('München ✓');
    // As Swift lists it: the parameters rebuilt from what parses ("✓" after a space does not).
    expect(out.listing).toEqual([['Grüße/日本.txt', 'text/plain;title=Grüße']]);
    expect(out.copy).toEqual(['text/x-ü', 'Zürich ✓', md5('x')]);
  });

  it('a 10-byte container quota takes a 9-byte object and refuses the next byte (Swift counts bytes); a copy with a Range copies that range', async () => {
    const out = (await py(`
import sys, json
from swiftclient.client import Connection, ClientException
c = Connection(authurl=sys.argv[1], user=sys.argv[2], key=sys.argv[3])
c.put_container('quota10', headers={'X-Container-Meta-Quota-Bytes': '10'})
c.put_object('quota10', 'nine', contents=b'123456789')
try:
    c.put_object('quota10', 'two', contents=b'12')
    refused = None
except ClientException as e:
    refused = e.http_status
c.put_object('quota10', 'one', contents=b'1')
c.put_container('ranged')
c.put_object('ranged', 'src', contents=b'0123456789')
c.put_object('ranged', 'part', contents=b'', headers={'X-Copy-From': '/ranged/src', 'Range': 'bytes=2-4'})
c.copy_object('ranged', 'src', destination='/ranged/tail', headers={'Range': 'bytes=-3'})
print(json.dumps({'refused': refused, 'used': c.head_container('quota10')['x-container-bytes-used'], 'part': c.get_object('ranged', 'part')[1].decode(), 'tail': c.get_object('ranged', 'tail')[1].decode()}))
`)) as { refused: number | null; used: string; part: string; tail: string };
    expect(out).toEqual({ refused: 413, used: '10', part: '234', tail: '789' });
  });

  it('a suffix range of an empty object is the object, 200 (as Swift; it was 416), by GET, multi-range GET and copy; bytes=0- stays 416', async () => {
    const out = (await py(`
import sys, json
from swiftclient.client import Connection, ClientException
c = Connection(authurl=sys.argv[1], user=sys.argv[2], key=sys.argv[3])
c.put_container('empties')
c.put_object('empties', 'e', contents=b'', content_type='text/x-empty')
def get(rng):
    try:
        h, body = c.get_object('empties', 'e', headers={'Range': rng})
        return [int(h.get('content-length')), h.get('content-range'), h['content-type'], body.decode()]
    except ClientException as e:
        return [e.http_status, e.http_response_headers.get('content-range')]
got = {r: get(r) for r in ('bytes=-5', 'bytes=0-4,-5', 'bytes=0-', 'bytes=-0')}
c.put_object('empties', 'copied', contents=b'', headers={'X-Copy-From': '/empties/e', 'Range': 'bytes=-5'})
c.copy_object('empties', 'e', destination='/empties/copied2', headers={'Range': 'bytes=-5'})
got['copies'] = [c.head_object('empties', n)['content-length'] for n in ('copied', 'copied2')]
print(json.dumps(got))
`)) as Record<string, unknown[]>;
    expect(out).toEqual({
      'bytes=-5': [0, null, 'text/x-empty', ''],
      'bytes=0-4,-5': [0, null, 'text/x-empty', ''],
      'bytes=0-': [416, 'bytes */0'],
      'bytes=-0': [416, 'bytes */0'],
      copies: ['0', '0'],
    });
  });

  it('a DLO manifest is made, changed and cleared by POST (X-Object-Manifest is metadata a POST replaces), with a raw UTF-8 prefix too', async () => {
    const out = (await py(`
import sys, json
from swiftclient.client import Connection
c = Connection(authurl=sys.argv[1], user=sys.argv[2], key=sys.argv[3])
c.put_container('dlopost')
c.put_object('dlopost', 'seg/1', contents=b'aa')
c.put_object('dlopost', 'seg/2', contents=b'bb')
c.put_object('dlopost', 'Grüße/1', contents=b'uu')
c.put_object('dlopost', 'obj', contents=b'own')
c.post_object('dlopost', 'obj', headers={'X-Object-Manifest': 'dlopost/seg/'})
made = c.get_object('dlopost', 'obj')[1].decode()
c.post_object('dlopost', 'obj', headers={'X-Object-Manifest': 'dlopost/seg/2'})
changed = c.get_object('dlopost', 'obj')[1].decode()
c.post_object('dlopost', 'obj', headers={'X-Object-Manifest': 'dlopost/Grüße/'})
utf8 = c.get_object('dlopost', 'obj')[1].decode()
c.post_object('dlopost', 'obj', headers={'X-Object-Meta-Plain': 'yes'})
h, cleared = c.get_object('dlopost', 'obj')
print(json.dumps({'made': made, 'changed': changed, 'utf8': utf8, 'cleared': cleared.decode(), 'manifest': h.get('x-object-manifest')}))
`)) as Record<string, string | null>;
    expect(out).toEqual({ made: 'aabb', changed: 'bb', utf8: 'uu', cleared: 'own', manifest: null });
  });

  it('?multipart-manifest=get on a copy copies the SLO or DLO manifest itself, not its assembled bytes', async () => {
    const out = (await py(`
import sys, json
from swiftclient.client import Connection
c = Connection(authurl=sys.argv[1], user=sys.argv[2], key=sys.argv[3])
c.put_container('mcopy')
c.put_object('mcopy', 'seg/1', contents=b'a' * 10)
c.put_object('mcopy', 'seg/2', contents=b'b' * 10)
manifest = [{'path': '/mcopy/seg/1'}, {'path': '/mcopy/seg/2'}]
c.put_object('mcopy', 'slo', contents=json.dumps(manifest), query_string='multipart-manifest=put')
c.put_object('mcopy', 'dlo', contents=b'', headers={'X-Object-Manifest': 'mcopy/seg/'})
c.put_object('mcopy', 'slo-copy', contents=b'', headers={'X-Copy-From': '/mcopy/slo'}, query_string='multipart-manifest=get')
c.put_object('mcopy', 'dlo-copy', contents=b'', headers={'X-Copy-From': '/mcopy/dlo'}, query_string='multipart-manifest=get')
c.put_object('mcopy', 'flat', contents=b'', headers={'X-Copy-From': '/mcopy/slo'})
slo = c.head_object('mcopy', 'slo-copy')
segs = json.loads(c.get_object('mcopy', 'slo-copy', query_string='multipart-manifest=get')[1])
dlo = c.head_object('mcopy', 'dlo-copy')
flat = c.head_object('mcopy', 'flat')
print(json.dumps({'slo': [slo.get('x-static-large-object'), slo['content-length'], [s['name'] for s in segs]], 'dlo': [dlo.get('x-object-manifest'), dlo['content-length'], c.get_object('mcopy', 'dlo-copy')[1].decode()], 'flat': [flat.get('x-static-large-object'), flat['content-length']]}))
`)) as Record<string, unknown>;
    expect(out).toEqual({
      slo: ['True', '20', ['/mcopy/seg/1', '/mcopy/seg/2']],
      dlo: ['mcopy/seg/', '20', 'a'.repeat(10) + 'b'.repeat(10)],
      flat: [null, '20'],
    });
  });
});
