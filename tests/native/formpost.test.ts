// Swift's formpost: a browser's form upload (fetch with FormData, as a page's form sends it),
// signed with a TempURL key of the account or the container, against a server on a loopback port.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, storagePath, type TestServer } from './server.js';

let s: TestServer;
const KEY = 'account-form-key';

beforeAll(async () => {
  s = await startTestServer();
  await call(s, 'POST', '', { headers: { 'X-Account-Meta-Temp-URL-Key': KEY } });
  await call(s, 'PUT', '/uploads');
});
afterAll(() => s?.close());

interface Form {
  redirect?: string;
  maxFileSize?: number;
  maxFileCount?: number;
  expires?: number;
  key?: string;
  digest?: string;
  extra?: Record<string, string>;
}

/** The form a page would hold: its signed fields (Swift's HMAC over path, redirect, limits, expiry), then the files. */
function formData(path: string, files: [string, Blob, string][], f: Form = {}): FormData {
  const maxFileSize = f.maxFileSize ?? 1 << 20;
  const maxFileCount = f.maxFileCount ?? 5;
  const expires = f.expires ?? Math.floor(Date.now() / 1000) + 300;
  const signed = decodeURIComponent(`${storagePath(s)}${path}`);
  const signature = createHmac(f.digest ?? 'sha256', f.key ?? KEY).update([signed, f.redirect ?? '', maxFileSize, maxFileCount, expires].join('\n')).digest('hex');
  const form = new FormData();
  if (f.redirect !== undefined) form.append('redirect', f.redirect);
  form.append('max_file_size', String(maxFileSize));
  form.append('max_file_count', String(maxFileCount));
  form.append('expires', String(expires));
  form.append('signature', signature);
  for (const [k, v] of Object.entries(f.extra ?? {})) form.append(k, v);
  for (const [field, blob, name] of files) form.append(field, blob, name);
  return form;
}

/** POSTs the form anonymously, as a browser does (fetch sets the multipart type and boundary); redirects are not followed. */
async function post(path: string, form: FormData) {
  const res = await fetch(`${s.storageUrl}${path}`, { method: 'POST', body: form, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('form posts (Swift formpost)', () => {
  it('stores each file under the prefix, with the type the browser gave it, and answers 201', async () => {
    const r = await post('/uploads/inbox/', formData('/uploads/inbox/', [
      ['file1', new Blob(['hello\n'], { type: 'text/plain' }), 'a.txt'],
      ['file2', new Blob([new Uint8Array([1, 2, 3])], { type: 'application/x-thing' }), 'b.bin'],
    ]));
    expect([r.status, r.text]).toEqual([201, '201 Created']);
    expect((await call(s, 'GET', '/uploads/inbox/a.txt')).text).toBe('hello\n');
    expect((await call(s, 'HEAD', '/uploads/inbox/b.bin')).headers.get('content-type')).toBe('application/x-thing');
  });

  it('redirects (303) with status and message, also when it refuses', async () => {
    const ok = await post('/uploads', formData('/uploads', [['f', new Blob(['x']), 'r.txt']], { redirect: 'https://app.example/done?id=7' }));
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('https://app.example/done?id=7&status=201&message=');
    const tooMany = await post('/uploads', formData('/uploads', [['f1', new Blob(['1']), '1'], ['f2', new Blob(['2']), '2']], { redirect: 'https://app.example/done', maxFileCount: 1 }));
    expect(tooMany.headers.get('location')).toBe('https://app.example/done?status=400&message=max%20file%20count%20exceeded');
    expect((await call(s, 'HEAD', '/uploads/1')).status).toBe(200);
    expect((await call(s, 'HEAD', '/uploads/2')).status).toBe(404);
  });

  it('refuses a wrong signature, an expired form, a file past max_file_size, as Swift words them', async () => {
    const wrong = await post('/uploads', formData('/uploads', [['f', new Blob(['x']), 'w.txt']], { key: 'not-the-key' }));
    expect([wrong.status, wrong.text]).toEqual([401, 'FormPost: Invalid Signature']);
    const expired = await post('/uploads', formData('/uploads', [['f', new Blob(['x']), 'w.txt']], { expires: Math.floor(Date.now() / 1000) - 10 }));
    expect([expired.status, expired.text]).toEqual([401, 'FormPost: Form Expired']);
    const big = await post('/uploads', formData('/uploads', [['f', new Blob(['x'.repeat(100)]), 'big.txt']], { maxFileSize: 10 }));
    expect([big.status, big.text]).toEqual([400, 'FormPost: max_file_size exceeded']);
    expect((await call(s, 'HEAD', '/uploads/big.txt')).status).toBe(404);
    expect((await call(s, 'HEAD', '/uploads/w.txt')).status).toBe(404);
  });

  it('takes the container\'s TempURL key and SHA-1/SHA-512 signatures (Swift 2.30 allows all three)', async () => {
    await call(s, 'PUT', '/ckey', { headers: { 'X-Container-Meta-Temp-URL-Key-2': 'container-key' } });
    for (const digest of ['sha1', 'sha512']) {
      const r = await post('/ckey', formData('/ckey', [['f', new Blob([digest]), `${digest}.txt`]], { key: 'container-key', digest }));
      expect([digest, r.status]).toEqual([digest, 201]);
    }
  });

  it('streams a large file through to the store whole (24 MiB)', async () => {
    const big = randomBytes(24 << 20);
    const r = await post('/uploads', formData('/uploads', [['f', new Blob([big]), 'large.bin']], { maxFileSize: 32 << 20 }));
    expect(r.status).toBe(201);
    const head = await call(s, 'HEAD', '/uploads/large.bin');
    expect(head.headers.get('etag')).toBe(createHash('md5').update(big).digest('hex'));
  });

  it('/info advertises formpost and bulk_upload with Swift\'s keys', async () => {
    const info = (await (await fetch(`${s.url}/info`)).json()) as Record<string, unknown>;
    expect(info.formpost).toEqual({ allowed_digests: ['sha1', 'sha256', 'sha512'], deprecated_digests: ['sha1'] });
    expect(info.bulk_upload).toEqual({ max_containers_per_extraction: 10000, max_failed_extractions: 1000 });
  });
});
