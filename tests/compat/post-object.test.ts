// POST Object (browser-based uploads): forms signed by boto3's generate_presigned_post (SigV4 and
// SigV2) posted with fetch and FormData as a browser posts them, anonymous forms to a bucket open
// to anonymous writes, and AWS's refusals (policy conditions, size range, signature, form shape).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CreateBucketCommand, GetObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, PutBucketAclCommand, PutBucketVersioningCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, CAROL, bucketName, parseXml, readAll, sdkError, send, startS3Server, type S3TestServer, type User } from './server.js';

let s: S3TestServer;
let c: S3Client;
beforeAll(async () => {
  s = await startS3Server();
  c = s.client();
});
afterAll(async () => {
  await s?.close();
});

interface Presigned {
  url: string;
  fields: Record<string, string>;
}

/**
 * boto3's generate_presigned_post, as a web back end makes the form for a browser: one python for
 * the file (boto3's import costs a second a start), a JSON line in and a JSON line out per form.
 */
const SIGNER = `
import boto3, json, sys
from botocore.config import Config
for line in sys.stdin:
    a = json.loads(line)
    c = boto3.client('s3', endpoint_url=a['url'], aws_access_key_id=a['ak'], aws_secret_access_key=a['sk'], region_name='us-east-1',
                     config=Config(signature_version='s3' if a['v2'] else 's3v4', s3={'addressing_style': 'path'}))
    print(json.dumps(c.generate_presigned_post(a['bucket'], a['key'], Fields=a['fields'], Conditions=a['conditions'], ExpiresIn=a['expires'])), flush=True)
`;
let signer: ChildProcessWithoutNullStreams;
let signed: AsyncIterator<string>;
let signerErrors = '';
beforeAll(() => {
  signer = spawn('/usr/bin/python3', ['-c', SIGNER], { env: { ...process.env, AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' } });
  signer.stderr.on('data', (d: Buffer) => (signerErrors += d.toString()));
  signed = createInterface({ input: signer.stdout })[Symbol.asyncIterator]();
});
afterAll(() => {
  signer?.kill();
});

async function presignedPost(bucket: string, key: string, o: { fields?: Record<string, string>; conditions?: unknown[]; expiresIn?: number; sigv2?: boolean; as?: User } = {}): Promise<Presigned> {
  const u = o.as ?? ALICE;
  const args = { url: s.url, ak: u.accessKey, sk: u.secretKey, v2: !!o.sigv2, bucket, key, fields: o.fields ?? null, conditions: o.conditions ?? null, expires: o.expiresIn ?? 300 };
  signer.stdin.write(`${JSON.stringify(args)}\n`);
  const line = await signed.next();
  if (line.done) throw new Error(`boto3 stopped: ${signerErrors}`);
  return JSON.parse(line.value) as Presigned;
}

/** The form posted as a browser posts it: the fields in order, the file last. */
function post(url: string, fields: Record<string, string>, file: string, filename = 'photo.jpg', type = 'image/jpeg', redirect: RequestRedirect = 'manual'): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file], { type }), filename);
  return fetch(url, { method: 'POST', body: form, redirect });
}

async function bucket(label = 'post'): Promise<string> {
  const b = bucketName(label);
  await c.send(new CreateBucketCommand({ Bucket: b }));
  return b;
}

async function bodyOf(b: string, key: string): Promise<string> {
  return (await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: key }))).Body)).toString('utf8');
}

const codeOf = async (r: Response) => [r.status, parseXml(await r.text()).Error as Record<string, string>] as const;

describe('signed forms', () => {
  it('SigV4 (boto3): ${filename} in the key, metadata, Content-Type, success_action_status 201 with PostResponse', async () => {
    const b = await bucket();
    const fields = { 'Content-Type': 'image/jpeg', 'x-amz-meta-owner': 'ann', success_action_status: '201' };
    const form = await presignedPost(b, 'uploads/${filename}', {
      fields,
      conditions: [['starts-with', '$Content-Type', 'image/'], { 'x-amz-meta-owner': 'ann' }, { success_action_status: '201' }, ['content-length-range', 1, 1000]],
    });
    expect(form.fields['x-amz-algorithm']).toBe('AWS4-HMAC-SHA256');
    const r = await post(form.url, form.fields, 'jpeg bytes');
    const text = await r.text();
    expect(r.status, text).toBe(201);
    const doc = parseXml(text).PostResponse as Record<string, string>;
    expect(doc.Bucket).toBe(b);
    expect(doc.Key).toBe('uploads/photo.jpg');
    // AWS escapes the key's / in Location too.
    expect(doc.Location).toBe(`${s.url}/${b}/uploads%2Fphoto.jpg`);
    expect(doc.ETag).toBe(r.headers.get('etag'));
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'uploads/photo.jpg' }));
    expect([head.ContentType, head.Metadata, head.ETag]).toEqual(['image/jpeg', { owner: 'ann' }, doc.ETag]);
    expect(await bodyOf(b, 'uploads/photo.jpg')).toBe('jpeg bytes');
  });

  it('SigV2 (boto3 signature_version s3): 204 with ETag and Location; a versioned bucket says the version', async () => {
    const b = await bucket();
    await c.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
    const form = await presignedPost(b, 'v2.txt', { sigv2: true });
    expect(form.fields.AWSAccessKeyId).toBe(ALICE.accessKey);
    const r = await post(form.url, form.fields, 'signed the old way', 'v2.txt', 'text/plain');
    expect(r.status, await r.text()).toBe(204);
    expect(r.headers.get('location')).toBe(`${s.url}/${b}/v2.txt`);
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'v2.txt' }));
    expect([r.headers.get('etag'), r.headers.get('x-amz-version-id')]).toEqual([head.ETag, head.VersionId]);
  });

  it('success_action_redirect: 303 to it with bucket, key and ETag; success_action_status 200: an empty 200', async () => {
    const b = await bucket();
    const redirect = 'https://app.example.com/done?from=form';
    const form = await presignedPost(b, 'r.txt', { fields: { success_action_redirect: redirect }, conditions: [{ success_action_redirect: redirect }] });
    const r = await post(form.url, form.fields, 'x');
    expect(r.status).toBe(303);
    const etag = (await c.send(new HeadObjectCommand({ Bucket: b, Key: 'r.txt' }))).ETag!;
    expect(r.headers.get('location')).toBe(`${redirect}&bucket=${b}&key=r.txt&etag=${encodeURIComponent(etag)}`);
    const plain = await presignedPost(b, 'p.txt', { fields: { success_action_status: '200' }, conditions: [{ success_action_status: '200' }] });
    const p = await post(plain.url, plain.fields, 'y');
    expect([p.status, await p.text()]).toEqual([200, '']);
  });

  it('the acl field sets the object ACL', async () => {
    const b = await bucket();
    const form = await presignedPost(b, 'public.txt', { fields: { acl: 'public-read' }, conditions: [{ acl: 'public-read' }] });
    expect((await post(form.url, form.fields, 'for all')).status).toBe(204);
    const anon = await fetch(`${s.url}/${b}/public.txt`);
    expect([anon.status, await anon.text()]).toEqual([200, 'for all']);
  });
});

describe('tags and server-side encryption in the form', () => {
  const tagging = (pairs: [string, string][]) => `<Tagging><TagSet>${pairs.map(([k, v]) => `<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`).join('')}</TagSet></Tagging>`;
  const signedWith = (b: string, key: string, fields: Record<string, string>) => presignedPost(b, key, { fields, conditions: Object.entries(fields).map(([k, v]) => ({ [k]: v })) });

  it('tagging: a Tagging document sets the object tags (GetObjectTagging reads them)', async () => {
    const b = await bucket();
    const form = await signedWith(b, 'tagged.txt', { tagging: tagging([['project', 'blue'], ['owner', 'ann & bob']].map(([k, v]) => [k!, v!.replace('&', '&amp;')])) });
    const r = await post(form.url, form.fields, 'tagged');
    expect(r.status, await r.text()).toBe(204);
    const got = await c.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'tagged.txt' }));
    expect(got.TagSet).toEqual([{ Key: 'project', Value: 'blue' }, { Key: 'owner', Value: 'ann & bob' }]);
  });

  it("tagging: x-amz-tagging's limits and errors (too many, too long, aws:, a key twice), and a broken document; nothing stored", async () => {
    const b = await bucket();
    const cases: [string, number, string][] = [
      [tagging(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])), 400, 'BadRequest'],
      [tagging([['k'.repeat(129), 'v']]), 400, 'InvalidTag'],
      [tagging([['aws:own', 'v']]), 400, 'InvalidTag'],
      [tagging([['same', 'a'], ['same', 'b']]), 400, 'InvalidTag'],
      ['<Tagging><TagSet><Tag><Key>k</Key></Tag>', 400, 'MalformedXML'],
    ];
    // One form whose policy takes any tagging field (one boto3 run, not one per case).
    const form = await presignedPost(b, 'refused.txt', { conditions: [['starts-with', '$tagging', '']] });
    for (const [doc, status, code] of cases) {
      const [st, err] = await codeOf(await post(form.url, { ...form.fields, tagging: doc }, 'x'));
      expect([doc.slice(0, 40), st, err.Code]).toEqual([doc.slice(0, 40), status, code]);
    }
    // The same limits through the header, for comparison: PutObject with 11 tags.
    const header = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'refused.txt', Body: 'x', Tagging: Array.from({ length: 11 }, (_, i) => `k${i}=v`).join('&') })));
    expect([header.status, header.name]).toEqual([400, 'BadRequest']);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'refused.txt' })))).status).toBe(404);
  });

  it('x-amz-server-side-encryption fields are refused as PutObject refuses the headers (501 naming it; SSE-C 400 over plain HTTP); nothing stored', async () => {
    const b = await bucket();
    const kms = await signedWith(b, 'sse.txt', { 'x-amz-server-side-encryption': 'aws:kms', 'x-amz-server-side-encryption-aws-kms-key-id': 'k1' });
    const [st, err] = await codeOf(await post(kms.url, kms.fields, 'x'));
    expect([st, err.Code, err.Header]).toEqual([501, 'NotImplemented', 'x-amz-server-side-encryption']);
    const header = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'sse.txt', Body: 'x', ServerSideEncryption: 'aws:kms' })));
    expect([header.status, header.name]).toEqual([501, 'NotImplemented']);
    const customer = await signedWith(b, 'sse.txt', { 'x-amz-server-side-encryption-customer-algorithm': 'AES256' });
    const [st2, err2] = await codeOf(await post(customer.url, customer.fields, 'x'));
    expect([st2, err2.Code]).toEqual([400, 'InvalidRequest']);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'sse.txt' })))).status).toBe(404);
  });
});

describe('a bucket name two tenants hold', () => {
  it("a signed form reaches its signer's own bucket of that name, as a signed PutObject does; unsigned, neither", async () => {
    const b = bucketName('post-dup');
    const carol = s.client(CAROL);
    await c.send(new CreateBucketCommand({ Bucket: b }));
    await carol.send(new CreateBucketCommand({ Bucket: b }));
    for (const [who, client] of [[ALICE, c], [CAROL, carol]] as const) {
      const form = await presignedPost(b, 'mine.txt', { as: who });
      const r = await post(form.url, form.fields, `from ${who.accessKey}`);
      expect(r.status, await r.text()).toBe(204);
      expect((await readAll((await client.send(new GetObjectCommand({ Bucket: b, Key: 'mine.txt' }))).Body)).toString()).toBe(`from ${who.accessKey}`);
    }
    const [status, err] = await codeOf(await post(`${s.url}/${b}`, { key: 'anon.txt' }, 'anyone'));
    expect([status, err.Code]).toEqual([404, 'NoSuchBucket']);
    carol.destroy();
  });
});

describe("the policy's refusals", () => {
  it('content-length-range: EntityTooLarge and EntityTooSmall, nothing stored', async () => {
    const b = await bucket();
    const form = await presignedPost(b, 'sized', { conditions: [['content-length-range', 5, 10]] });
    const [status, err] = await codeOf(await post(form.url, form.fields, 'x'.repeat(64 * 1024)));
    expect([status, err.Code, err.MaxSizeAllowed]).toEqual([400, 'EntityTooLarge', '10']);
    const [status2, err2] = await codeOf(await post(form.url, form.fields, 'abc'));
    expect([status2, err2.Code, err2.ProposedSize, err2.MinSizeAllowed]).toEqual([400, 'EntityTooSmall', '3', '5']);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'sized' })))).status).toBe(404);
    expect((await post(form.url, form.fields, 'just fine')).status).toBe(204);
  });

  it('a field changed after signing, a field the policy does not name, an expired policy: AccessDenied', async () => {
    const b = await bucket();
    const form = await presignedPost(b, 'exact.txt');
    const changed = await codeOf(await post(form.url, { ...form.fields, key: 'other.txt' }, 'x'));
    expect([changed[0], changed[1].Code, changed[1].Message]).toEqual([403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$key", "exact.txt"]`]);
    const extra = await codeOf(await post(form.url, { ...form.fields, 'x-amz-meta-sneaky': '1' }, 'x'));
    expect([extra[0], extra[1].Message]).toEqual([403, 'Invalid according to Policy: Extra input fields: x-amz-meta-sneaky']);
    // x-ignore-* fields need no condition.
    expect((await post(form.url, { ...form.fields, 'x-ignore-note': 'n' }, 'x')).status).toBe(204);
    const old = await presignedPost(b, 'late.txt', { expiresIn: -60 });
    const expired = await codeOf(await post(old.url, old.fields, 'x'));
    expect([expired[0], expired[1].Message]).toEqual([403, 'Invalid according to Policy: Policy expired.']);
  });

  it('a wrong secret is SignatureDoesNotMatch, an unknown key InvalidAccessKeyId', async () => {
    const b = await bucket();
    const forged = await presignedPost(b, 'f.txt', { as: { ...ALICE, secretKey: 'not-the-secret' } });
    expect((await codeOf(await post(forged.url, forged.fields, 'x')))[1].Code).toBe('SignatureDoesNotMatch');
    const stranger = await presignedPost(b, 'f.txt', { as: { ...ALICE, accessKey: 'NOSUCHKEY00000000000' }, sigv2: true });
    expect((await codeOf(await post(stranger.url, stranger.fields, 'x')))[1].Code).toBe('InvalidAccessKeyId');
  });
});

describe('unsigned forms and the shape of the form', () => {
  it('anonymous: stored in a bucket open to anonymous writes, AccessDenied elsewhere', async () => {
    const open = await bucket();
    await c.send(new PutBucketAclCommand({ Bucket: open, ACL: 'public-read-write' }));
    const r = await post(`${s.url}/${open}`, { key: 'anon/${filename}' }, 'from anyone', 'a.txt');
    expect(r.status, await r.text()).toBe(204);
    expect(await bodyOf(open, 'anon/a.txt')).toBe('from anyone');
    const closed = await bucket();
    const [status, err] = await codeOf(await post(`${s.url}/${closed}`, { key: 'x' }, 'no'));
    expect([status, err.Code]).toEqual([403, 'AccessDenied']);
  });

  it('virtual-host addressing: the bucket in the Host header', async () => {
    const b = await bucket();
    const form = await presignedPost(b, 'vh.txt');
    const boundary = 'xYzZY';
    const parts = Object.entries(form.fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
    const body = Buffer.from(`${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="vh.txt"\r\n\r\nvirtual\r\n--${boundary}--\r\n`);
    const r = await send(s.port, 'POST', '/', { host: `${b}.localhost:${s.port}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) }, body);
    expect(r.status, r.text).toBe(204);
    expect(r.headers.location).toBe(`http://${b}.localhost:${s.port}/vh.txt`);
    expect(await bodyOf(b, 'vh.txt')).toBe('virtual');
  });

  it('refuses a form without key or file, a body that is not multipart, a broken one', async () => {
    const b = await bucket();
    await c.send(new PutBucketAclCommand({ Bucket: b, ACL: 'public-read-write' }));
    const noKey = await codeOf(await post(`${s.url}/${b}`, {}, 'x'));
    expect([noKey[0], noKey[1].Code, noKey[1].ArgumentName]).toEqual([400, 'InvalidArgument', 'key']);
    const form = new FormData();
    form.append('key', 'k');
    const noFile = await codeOf(await fetch(`${s.url}/${b}`, { method: 'POST', body: form }));
    expect([noFile[0], noFile[1].Code, noFile[1].ArgumentName]).toEqual([400, 'InvalidArgument', 'file']);
    const plain = await codeOf(await fetch(`${s.url}/${b}`, { method: 'POST', body: 'key=k', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    expect([plain[0], plain[1].Code]).toEqual([412, 'PreconditionFailed']);
    const broken = await codeOf(await fetch(`${s.url}/${b}`, { method: 'POST', body: 'not a form', headers: { 'content-type': 'multipart/form-data; boundary=zz' } }));
    expect([broken[0], broken[1].Code]).toEqual([400, 'MalformedPOSTRequest']);
  });
});
