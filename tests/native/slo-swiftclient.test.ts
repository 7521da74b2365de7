// Large objects as Swift 2.30's slo and dlo middleware serve them (issue #27), through
// python-swiftclient against a real server: segment ranges, nested manifests and their depth
// limit, empty manifests, X-Manifest-Etag and slo_etag, the raw manifest, a broken SLO, and
// X-Object-Manifest sent back as it was sent.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';
import { python, swiftClientEnv } from './swift-tools.js';
import { md5, useServerWithScratch } from './http-kit.js';

let s!: TestServer;
let work!: string;
useServerWithScratch('coffer-slo-', (server, scratch) => ((s = server), (work = scratch)));

const clientEnv = () => swiftClientEnv();

/** Runs a python-swiftclient script (`c` is swiftclient.client, `url`/`tok` the tester's) and returns its `out`. */
async function py(script: string): Promise<Record<string, unknown>> {
  const file = join(work, `s-${Math.random().toString(36).slice(2)}.py`);
  const prelude = 'import hashlib, json, sys\nfrom swiftclient import client as c\nfrom swiftclient.exceptions import ClientException\n';
  writeFileSync(file, `${prelude}url, tok = c.get_auth(sys.argv[1], sys.argv[2], sys.argv[3])\nout = {}\n${script}\nprint(json.dumps(out))\n`);
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(python(), [file, s.authUrl, SWIFT_USER, SWIFT_KEY], { cwd: work, env: clientEnv(), timeout: 50_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? 1 : 0, stdout, stderr });
    });
  });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

const SEG_A = 'segment-a\n';
const SEG_B = 'segment-b\n';

describe('static large objects through python-swiftclient, as Swift 2.30', () => {
  it('segments with a range: the bytes, the ETag over `etag:range;`, X-Manifest-Etag, slo_etag in the listing, the raw form', async () => {
    const out = await py(`
c.put_container(url, tok, 'r')
c.put_object(url, tok, 'r', 'seg/a', ${JSON.stringify(SEG_A)})
c.put_object(url, tok, 'r', 'seg/b', ${JSON.stringify(SEG_B)})
m = [{'path': '/r/seg/a', 'range': '0-1'}, {'path': '/r/seg/b', 'range': '-3'}, {'path': '/r/seg/a', 'range': '0-'}]
out['put'] = c.put_object(url, tok, 'r', 'ranged', json.dumps(m), content_type='text/x-parts', query_string='multipart-manifest=put')
h, body = c.get_object(url, tok, 'r', 'ranged')
out['get'] = [body.decode(), h['etag'], h['content-length'], h.get('x-manifest-etag')]
h, body = c.get_object(url, tok, 'r', 'ranged', headers={'Range': 'bytes=1-3'})
out['range'] = [body.decode(), h['content-range']]
h, doc = c.get_object(url, tok, 'r', 'ranged', query_string='multipart-manifest=get')
out['doc'] = [json.loads(doc), h['etag'], hashlib.md5(doc).hexdigest()]
h, raw = c.get_object(url, tok, 'r', 'ranged', query_string='multipart-manifest=get&format=raw')
out['raw'] = [raw.decode(), h['content-type'], h['etag'], hashlib.md5(raw).hexdigest()]
_, listing = c.get_container(url, tok, 'r', prefix='ranged')
out['listing'] = listing[0]
`);
    const etag = md5(`${md5(SEG_A)}:0-1;${md5(SEG_B)}:7-9;${md5(SEG_A)}`);
    expect(out.put).toBe(etag);
    const [body, getEtag, length, manifestEtag] = out.get as string[];
    expect([body, getEtag, length]).toEqual([`se${SEG_B.slice(-3)}${SEG_A}`, `"${etag}"`, String(2 + 3 + SEG_A.length)]);
    expect(out.range).toEqual(['e-b', `bytes 1-3/${2 + 3 + SEG_A.length}`]);
    const [doc, docEtag, docMd5] = out.doc as [Record<string, unknown>[], string, string];
    // A range spanning the whole segment is not stored (Swift drops it); the others as first-last.
    expect(doc.map((d) => d.range)).toEqual(['0-1', '7-9', undefined]);
    expect(docEtag).toBe(docMd5);
    expect(manifestEtag).toBe(docMd5);
    const [raw, rawType, rawEtag, rawMd5] = out.raw as string[];
    expect(JSON.parse(raw!)).toEqual([
      { etag: md5(SEG_A), path: '/r/seg/a', range: '0-1', size_bytes: SEG_A.length },
      { etag: md5(SEG_B), path: '/r/seg/b', range: '7-9', size_bytes: SEG_B.length },
      { etag: md5(SEG_A), path: '/r/seg/a', size_bytes: SEG_A.length },
    ]);
    expect([rawType, rawEtag]).toEqual(['text/x-parts', rawMd5]);
    expect(out.listing).toMatchObject({ name: 'ranged', bytes: 2 + 3 + SEG_A.length, hash: docMd5, slo_etag: `"${etag}"` });
  });

  it('a range with no byte in its segment, and a malformed one, are refused as Swift words them', async () => {
    const out = await py(`
c.put_container(url, tok, 'bad')
c.put_object(url, tok, 'bad', 'a', ${JSON.stringify(SEG_A)})
for key, m in [('late', [{'path': '/bad/a', 'range': '10-'}]), ('told', [{'path': '/bad/a', 'size_bytes': 10, 'range': '10-'}]), ('reversed', [{'path': '/bad/a', 'range': '5-2'}])]:
    try:
        c.put_object(url, tok, 'bad', 'm', json.dumps(m), query_string='multipart-manifest=put')
    except ClientException as e:
        out[key] = [e.http_status, e.http_response_content.decode()]
`);
    expect(out.late).toEqual([400, 'Errors:\n/bad/a, Unsatisfiable Range\n']);
    expect(out.told).toEqual([400, 'Index 0: unsatisfiable range']);
    expect(out.reversed).toEqual([400, 'Index 0: invalid range']);
  });

  it('an empty manifest is an empty object; ten levels of nested SLOs are read, an eleventh is 409', async () => {
    const out = await py(`
c.put_container(url, tok, 'n')
out['empty'] = c.put_object(url, tok, 'n', 'empty', '[]', query_string='multipart-manifest=put')
h, body = c.get_object(url, tok, 'n', 'empty')
out['empty-get'] = [body.decode(), h['content-length'], h['etag'], h['x-static-large-object']]
c.put_object(url, tok, 'n', 'seg', 'x')
inner = '/n/seg'
for level in range(1, 12):
    c.put_object(url, tok, 'n', 'l%d' % level, json.dumps([{'path': inner}, {'path': '/n/seg'}]), query_string='multipart-manifest=put')
    inner = '/n/l%d' % level
_, body = c.get_object(url, tok, 'n', 'l10')
out['ten'] = body.decode()
out['eleven-head'] = c.head_object(url, tok, 'n', 'l11')['content-length']
try:
    c.get_object(url, tok, 'n', 'l11')
except ClientException as e:
    out['eleven'] = e.http_status
`);
    expect(out.empty).toBe(md5(''));
    expect(out['empty-get']).toEqual(['', '0', `"${md5('')}"`, 'True']);
    expect(out.ten).toBe('x'.repeat(11));
    expect(out['eleven-head']).toBe('12');
    expect(out.eleven).toBe(409);
  });

  it('a segment gone: 409 when it is the first, 500 within the first 4 KiB, a body cut short after', async () => {
    const out = await py(`
c.put_container(url, tok, 'b')
c.put_object(url, tok, 'b', 's1', 'one')
c.put_object(url, tok, 'b', 's2', 'two')
c.put_object(url, tok, 'b', 'big', 'x' * 5000)
c.put_object(url, tok, 'b', 'first', json.dumps([{'path': '/b/s1'}, {'path': '/b/s2'}]), query_string='multipart-manifest=put')
c.put_object(url, tok, 'b', 'early', json.dumps([{'path': '/b/s2'}, {'path': '/b/s1'}]), query_string='multipart-manifest=put')
c.put_object(url, tok, 'b', 'late', json.dumps([{'path': '/b/big'}, {'path': '/b/s1'}]), query_string='multipart-manifest=put')
c.delete_object(url, tok, 'b', 's1')
for name in ['first', 'early']:
    try:
        c.get_object(url, tok, 'b', name)
    except ClientException as e:
        out[name] = e.http_status
h, body = c.get_object(url, tok, 'b', 'late', resp_chunk_size=1024)
got = b''
try:
    for chunk in body:
        got += chunk
except Exception:
    pass
out['late'] = [h['content-length'], len(got)]
`);
    expect(out.first).toBe(409);
    expect(out.early).toBe(500);
    expect(out.late).toEqual(['5003', 5000]);
  });
});

describe('dynamic large objects through python-swiftclient, as Swift 2.30', () => {
  it('X-Object-Manifest comes back as it was sent; the manifest read as itself has its own unquoted ETag; a POST stores a malformed one', async () => {
    const out = await py(`
c.put_container(url, tok, 'd')
c.put_object(url, tok, 'd', '\\u00e9/1', 'one')
c.put_object(url, tok, 'd', 'lower', '', headers={'X-Object-Manifest': 'd/%c3%a9/'})
c.put_object(url, tok, 'd', 'raw', '', headers={'X-Object-Manifest': 'd/\\u00e9/'.encode('utf-8')})
h, body = c.get_object(url, tok, 'd', 'lower')
out['lower'] = [h['x-object-manifest'], body.decode(), h['etag']]
h, body = c.get_object(url, tok, 'd', 'raw')
out['raw'] = [h['x-object-manifest'], body.decode()]
# swiftclient unquotes header values: the header as sent, through its connection
parsed, conn = c.http_connection(url)
conn.request('HEAD', parsed.path + '/d/lower', '', {'X-Auth-Token': tok})
out['lower-header'] = conn.getresponse().getheader('x-object-manifest')
out['self'] = c.head_object(url, tok, 'd', 'lower', query_string='multipart-manifest=get')['etag']
c.post_object(url, tok, 'd', 'lower', headers={'X-Object-Manifest': 'no-slash'})
out['posted'] = c.head_object(url, tok, 'd', 'lower', query_string='multipart-manifest=get')['x-object-manifest']
`);
    expect(out.lower).toEqual(['d/\u00e9/', 'one', `"${md5(md5('one'))}"`]);
    expect(out['lower-header']).toBe('d/%c3%a9/');
    expect(out.raw).toEqual(['d/\u00e9/', 'one']);
    expect(out.self).toBe(md5(''));
    expect(out.posted).toBe('no-slash');
  });
});
