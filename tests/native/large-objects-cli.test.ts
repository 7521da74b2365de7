/** The real python-swiftclient CLI against a real server: SLO/DLO uploads, downloads, deletes, TempURL. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, bytes, hasSwiftCli, md5, request, startServer, swift, type XloServer } from './xlo-server.js';

let s: XloServer;
const data = bytes(5500, 42);

beforeAll(async () => {
  s = await startServer();
  writeFileSync(join(s.dir, 'big.bin'), data);
});
afterAll(() => s?.close());

async function listing(container: string): Promise<string[]> {
  const r = await request(s, 'GET', `/${container}?format=json`);
  return r.status === 200 ? (JSON.parse(r.text) as { name: string }[]).map((o) => o.name) : [];
}

async function download(container: string, name: string): Promise<Buffer> {
  const out = join(s.dir, `out-${container}`);
  mkdirSync(out, { recursive: true });
  const r = await swift(s, ['download', container, name, '-o', join(out, name)]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return readFileSync(join(out, name));
}

describe.skipIf(!hasSwiftCli)('swift CLI', () => {
  it('upload --use-slo makes an SLO over <container>_segments that downloads byte-identical', async () => {
    const up = await swift(s, ['upload', '--use-slo', '--segment-size', '1000', 'slo', 'big.bin']);
    expect([up.code, up.stderr]).toEqual([0, '']);
    expect(await listing('slo_segments')).toHaveLength(6);
    const head = await request(s, 'HEAD', '/slo/big.bin');
    expect(head.headers.get('x-static-large-object')).toBe('True');
    expect(head.headers.get('content-length')).toBe('5500');
    expect(head.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await download('slo', 'big.bin')).equals(data)).toBe(true);
  });

  it('re-uploading with another segment size replaces the old segments', async () => {
    const up = await swift(s, ['upload', '--use-slo', '--segment-size', '2000', 'slo', 'big.bin']);
    expect(up.code).toBe(0);
    expect(await listing('slo_segments')).toHaveLength(3);
    expect((await download('slo', 'big.bin')).equals(data)).toBe(true);
  });

  it('delete removes the SLO and its segments (?multipart-manifest=delete)', async () => {
    const del = await swift(s, ['delete', 'slo', 'big.bin']);
    expect([del.code, del.stderr]).toEqual([0, '']);
    expect(await listing('slo')).toEqual([]);
    expect(await listing('slo_segments')).toEqual([]);
    expect(s.log.some((l) => l.includes('multipart-manifest=delete') && / 200 \d+ms$/.test(l))).toBe(true);
  });

  it('upload --segment-size (no --use-slo) makes a DLO that downloads byte-identical, and delete removes its segments', async () => {
    const up = await swift(s, ['upload', '--segment-size', '1000', 'dlo', 'big.bin']);
    expect([up.code, up.stderr]).toEqual([0, '']);
    const head = await request(s, 'HEAD', '/dlo/big.bin');
    expect(head.headers.get('x-object-manifest')).toMatch(/^dlo_segments\/big\.bin\/[\d.]+\/5500\/1000\/$/);
    expect(head.headers.get('content-length')).toBe('5500');
    expect(head.headers.get('etag')).toBe(`"${md5(Array.from({ length: 6 }, (_, i) => md5(data.subarray(i * 1000, i * 1000 + 1000))).join(''))}"`);
    expect((await download('dlo', 'big.bin')).equals(data)).toBe(true);
    expect((await swift(s, ['delete', 'dlo', 'big.bin'])).code).toBe(0);
    expect(await listing('dlo_segments')).toEqual([]);
  });

  it('delete of a container with many objects uses bulk delete', async () => {
    const dir = join(s.dir, 'many');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, `f ${i}.txt`), `file ${i}`);
    expect((await swift(s, ['upload', 'many', 'many'])).code).toBe(0);
    expect(await listing('many')).toHaveLength(30);
    const del = await swift(s, ['delete', 'many']);
    expect([del.code, del.stderr]).toEqual([0, '']);
    expect(s.log.some((l) => /POST \S+\?bulk-delete 200/.test(l))).toBe(true);
    expect((await request(s, 'HEAD', '/many')).status).toBe(404);
  });

  it('swift tempurl makes URLs the server honours (sha256 and sha512, epoch and ISO 8601)', async () => {
    await request(s, 'POST', '', { headers: { 'X-Account-Meta-Temp-URL-Key': 'cli-key' } });
    await request(s, 'PUT', '/t');
    await request(s, 'PUT', '/t/o.txt', { body: 'temp content' });
    const path = `/v1/AUTH_${ACCOUNT}/t/o.txt`;
    for (const extra of [[], ['--digest', 'sha512'], ['--iso8601']]) {
      const r = await swift(s, ['tempurl', ...extra, 'GET', '60', path, 'cli-key']);
      expect(r.code).toBe(0);
      const got = await request(s, 'GET', `${s.url}/swift${r.stdout.trim()}`, { token: null });
      expect([extra, got.status, got.text]).toEqual([extra, 200, 'temp content']);
    }
    const put = await swift(s, ['tempurl', 'PUT', '60', `/v1/AUTH_${ACCOUNT}/t/new.txt`, 'cli-key']);
    const res = await request(s, 'PUT', `${s.url}${put.stdout.trim()}`, { token: null, body: 'via tempurl' });
    expect(res.status).toBe(201);
    expect((await request(s, 'GET', '/t/new.txt')).text).toBe('via tempurl');
  });
});
