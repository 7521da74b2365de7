// The servers a corpus row is sent to: Coffer (in this process, both APIs on one port), OpenStack
// Swift (its native API, and S3 through s3api) and Ceph RGW (S3, and its Swift API). Each target
// knows how to authenticate the row's `as`, what its names are (for placeholders) and what must
// be normalised away in its answers.
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { Sha256 } from '../compat/server.js';
import type { RgwEndpoints, SwiftEndpoints } from '../reference/reference.js';
import { makeNormaliser, type Normaliser, type RawAnswer } from './observe.js';
import type { Api, Req, TargetName, Who } from './types.js';

export interface S3Key {
  accessKey: string;
  secretKey: string;
}

export interface Target {
  name: TargetName;
  api: Api;
  /** What the report calls it (`OpenStack Swift 2.30.1`). */
  label: string;
  port: number;
  /** Placeholder values of this target (`account`, `owner-id`, …). */
  vars: Record<string, string>;
  normaliser: Normaliser;
  send(req: Req, path: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer>;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** One HTTP request to 127.0.0.1, the path sent exactly as given. */
export function sendRaw(port: number, method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // The lenient parser: RGW answers some requests with framing Node's strict parser refuses
    // (a body after `Connection: close` on HEAD /, a header with a space in its name).
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: REQUEST_TIMEOUT_MS, insecureHTTPParser: true }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
    // Bytes after a complete answer (RGW's body on a HEAD) fail the socket once the request is done: not ours to throw.
    req.on('socket', (socket) => socket.on('error', () => undefined));
    req.on('error', reject);
    req.end(body);
  });
}

/** Content-Length for bodies and for PUT/POST without one, unless the row frames the body itself. */
function framed(method: string, headers: Record<string, string>, body: Buffer): Record<string, string> {
  const names = Object.keys(headers).map((h) => h.toLowerCase());
  if (names.includes('content-length') || names.includes('transfer-encoding')) return headers;
  if (body.length || method === 'PUT' || method === 'POST') return { ...headers, 'Content-Length': String(body.length) };
  return headers;
}

// ---------------------------------------------------------------- native

interface NativeAuth {
  /** Storage URL path (`/v1/AUTH_test`), and the account segment clients name (`AUTH_test`). */
  storagePath: string;
  token: string;
}

async function v1Auth(port: number, authPath: string, user: string, key: string): Promise<NativeAuth> {
  const r = await sendRaw(port, 'GET', authPath, { 'X-Auth-User': user, 'X-Auth-Key': key }, Buffer.alloc(0));
  const url = r.headers['x-storage-url'];
  const token = r.headers['x-auth-token'];
  if ((r.status !== 200 && r.status !== 204) || typeof url !== 'string' || typeof token !== 'string') {
    throw new Error(`v1 auth of ${user} on port ${port}: ${r.status}`);
  }
  return { storagePath: new URL(url).pathname, token };
}

interface NativeSetup {
  name: TargetName;
  label: string;
  port: number;
  authPath: string;
  owner: { user: string; key: string };
  other: { user: string; key: string };
  /** Account names as they appear in answers, mapped to placeholders. */
  identities: [string, string][];
  /** The account segment `X-Copy-From-Account` and friends take. */
  account: string;
  otherAccount: string;
  /** How a container ACL names the other user's account. */
  otherAcl: string;
  /** The storage URL's path before the account (`/v1`, `/swift/v1`). */
  v1: string;
}

async function nativeTarget(s: NativeSetup, runTag: string): Promise<Target> {
  const owner = await v1Auth(s.port, s.authPath, s.owner.user, s.owner.key);
  const other = await v1Auth(s.port, s.authPath, s.other.user, s.other.key);
  const host = `127.0.0.1:${s.port}`;
  return {
    name: s.name,
    api: 'native',
    label: s.label,
    port: s.port,
    vars: {
      account: s.account, 'other-account': s.otherAccount, 'other-acl': s.otherAcl, v1: s.v1,
      user: s.owner.user, key: s.owner.key, 'other-user': s.other.user, 'other-key': s.other.key, token: owner.token,
    },
    normaliser: makeNormaliser([[host, '<host>'], [runTag, '<run>'], ...s.identities]),
    send(req, path, headers, body) {
      const who: Who = req.as ?? 'owner';
      const h = { ...headers };
      if (who === 'owner') h['X-Auth-Token'] = owner.token;
      else if (who === 'other') h['X-Auth-Token'] = other.token;
      else if (who === 'bad-token') h['X-Auth-Token'] = 'AUTH_tk0123456789abcdef0123456789abcdef';
      const at = req.at ?? 'storage';
      // `as: 'other'` addresses the owner's account with its own token (ACL and cross-account rows);
      // `at: 'other'` addresses the other user's account.
      let full = at === 'auth' ? s.authPath + path : at === 'root' ? path : (at === 'other' ? other.storagePath : owner.storagePath) + path;
      if (req.tempUrl) {
        const expires = Math.floor(Date.now() / 1000) + req.tempUrl.expires;
        const signedPath = decodeURIComponent(full.replace(/\?.*$/, ''));
        const sig = createHmac('sha1', req.tempUrl.key).update(`${req.tempUrl.method ?? req.method}\n${expires}\n${signedPath}`).digest('hex');
        full += `${full.includes('?') ? '&' : '?'}temp_url_sig=${sig}&temp_url_expires=${expires}`;
      }
      if (req.form) {
        const f = req.form;
        const expires = String(Math.floor(Date.now() / 1000) + f.expires);
        const signedPath = decodeURIComponent(full.replace(/\?.*$/, ''));
        const sig = createHmac(f.digest ?? 'sha256', f.key).update([signedPath, f.redirect ?? '', f.maxFileSize, f.maxFileCount, expires].join('\n')).digest('hex');
        body = Buffer.from(body.toString('latin1').replaceAll('[[form-sig]]', sig).replaceAll('[[form-expires]]', expires), 'latin1');
      }
      return sendRaw(s.port, req.method, full, framed(req.method, h, body), body);
    },
  };
}

// ---------------------------------------------------------------- S3

interface S3Setup {
  name: TargetName;
  label: string;
  port: number;
  owner: S3Key;
  other: S3Key;
  identities: [string, string][];
  ownerId: string;
  otherId: string;
}

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

/** Sub-resources SigV2 signs (its canonical resource keeps them, sorted, and drops other parameters). */
const V2_SUBRESOURCES = new Set(['acl', 'delete', 'location', 'logging', 'partNumber', 'policy', 'tagging', 'torrent', 'uploadId', 'uploads', 'versionId', 'versioning', 'versions', 'website', 'cors', 'lifecycle']);

/** SigV2: HMAC-SHA1 over method, Content-MD5, Content-Type, Date, the x-amz-* headers and the resource. */
function sigV2(secret: string, method: string, path: string, headers: Record<string, string>): string {
  const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const [resource, query = ''] = path.split(/\?(.*)/s);
  const subs = query
    .split('&')
    .filter(Boolean)
    .map((p) => p.split(/=(.*)/s) as [string, string?])
    .filter(([k]) => V2_SUBRESOURCES.has(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => (v === undefined || v === '' ? k : `${k}=${decodeURIComponent(v)}`));
  const amz = Object.keys(h)
    .filter((k) => k.startsWith('x-amz-'))
    .sort()
    .map((k) => `${k}:${h[k]!.trim()}\n`)
    .join('');
  const canonical = `${resource}${subs.length ? `?${subs.join('&')}` : ''}`;
  const toSign = `${method}\n${h['content-md5'] ?? ''}\n${h['content-type'] ?? ''}\n${h.date ?? ''}\n${amz}${canonical}`;
  return createHmac('sha1', secret).update(toSign).digest('base64');
}

/** A form's body with its POST policy and signature filled in (see Req.postPolicy). */
function signedForm(p: NonNullable<Req['postPolicy']>, key: S3Key, path: string, body: Buffer): Buffer {
  const now = new Date();
  const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
  const credential = `${key.accessKey}/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`;
  const bucket = decodeURIComponent(path.split(/[/?]/)[1] ?? '');
  const sigFields = p.v2 ? [] : [{ 'x-amz-algorithm': 'AWS4-HMAC-SHA256' }, { 'x-amz-credential': credential }, { 'x-amz-date': amzDate }];
  const doc = { expiration: new Date(now.getTime() + p.expires * 1000).toISOString(), conditions: [{ bucket }, ...sigFields, ...p.conditions] };
  const policy = Buffer.from(JSON.stringify(doc)).toString('base64');
  const hmac = (k: string | Buffer, v: string) => createHmac('sha256', k).update(v).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${key.secretKey}`, amzDate.slice(0, 8)), 'us-east-1'), 's3'), 'aws4_request');
  const values: Record<string, string> = {
    policy,
    'x-amz-credential': credential,
    'x-amz-date': amzDate,
    'x-amz-signature': createHmac('sha256', signingKey).update(policy).digest('hex'),
    'access-key': key.accessKey,
    signature: createHmac('sha1', key.secretKey).update(policy).digest('base64'),
  };
  return Buffer.from(body.toString('latin1').replace(/\[\[([a-z-]+)\]\]/g, (m, name: string) => values[name] ?? m), 'latin1');
}

function s3Target(s: S3Setup, runTag: string): Target {
  const host = `127.0.0.1:${s.port}`;
  return {
    name: s.name,
    api: 's3',
    label: s.label,
    port: s.port,
    vars: { 'owner-id': s.ownerId, 'other-id': s.otherId },
    normaliser: makeNormaliser([[host, '<host>'], ['127.0.0.1', '<host>'], [runTag, '<run>'], ...s.identities]),
    async send(req, path, headers, body) {
      const who: Who = req.as ?? 'owner';
      let h: Record<string, string> = { host, ...framed(req.method, headers, body) };
      if (req.md5) h['Content-MD5'] = createHash('md5').update(body).digest('base64');
      const key: S3Key | undefined =
        who === 'owner' ? s.owner : who === 'other' ? s.other : who === 'bad-signature' ? { ...s.owner, secretKey: `${s.owner.secretKey}x` } : who === 'unknown-key' ? { accessKey: 'NOSUCHACCESSKEY00000', secretKey: 'no-such-secret' } : undefined;
      if (req.postPolicy) {
        const form = signedForm(req.postPolicy, key ?? s.owner, path, body);
        return sendRaw(s.port, req.method, path, { host, ...framed(req.method, headers, form) }, form);
      }
      if (key && req.sigv2) {
        const date = req.sigv2Date === undefined ? new Date(Date.now() + (req.clockSkew ?? 0) * 1000).toUTCString() : req.sigv2Date;
        if (date !== null) h.Date = date;
        const signedPath = req.sigv2Resource === undefined ? path : `${req.sigv2Resource}${path.includes('?') ? path.slice(path.indexOf('?')) : ''}`;
        h.Authorization = `AWS ${key.accessKey}:${sigV2(key.secretKey, req.method, signedPath, h)}`;
      } else if (key) {
        if (!req.presign) h['x-amz-content-sha256'] ??= req.unsignedPayload ? 'UNSIGNED-PAYLOAD' : body.length ? createHash('sha256').update(body).digest('hex') : EMPTY_SHA256;
        const q = path.indexOf('?');
        const query: Record<string, string | string[]> = {};
        for (const part of (q < 0 ? '' : path.slice(q + 1)).split('&').filter(Boolean)) {
          const eq = part.indexOf('=');
          const k = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
          const v = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
          const prev = query[k];
          query[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
        }
        const signer = new SignatureV4({ service: 's3', region: 'us-east-1', credentials: { accessKeyId: key.accessKey, secretAccessKey: key.secretKey }, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
        const request = { method: req.method, protocol: 'http:', hostname: '127.0.0.1', port: s.port, path: q < 0 ? path : path.slice(0, q), query, headers: h, body };
        const signingDate = new Date(Date.now() + (req.clockSkew ?? 0) * 1000);
        if (req.presign !== undefined) {
          // A presigned URL's payload is UNSIGNED-PAYLOAD, as the SDK's presigner says (it ends up in the query).
          const signed = await signer.presign({ ...request, headers: { host: h.host!, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } }, { signingDate, expiresIn: req.presign });
          const qs = Object.entries(signed.query ?? {})
            .flatMap(([k, v]) => ([] as (string | null)[]).concat(v).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x ?? '')}`))
            .join('&');
          return sendRaw(s.port, req.method, `${request.path}?${qs}`, h, body);
        }
        const signed = await signer.sign(request, { signingDate });
        h = signed.headers as Record<string, string>;
      }
      return sendRaw(s.port, req.method, path, h, body);
    },
  };
}

// ---------------------------------------------------------------- the targets

/** Coffer's users: the owner and another account of the same tenant (one bucket namespace, as RGW's users share one). */
const COFFER = {
  owner: { account: 'diff$tester', access: 'DIFFTESTERACCESSKEY1', secret: 'diff-tester-secret-key', swiftKey: 'diff-tester-swift-key' },
  other: { account: 'diff$other', access: 'DIFFOTHERACCESSKEY02', secret: 'diff-other-secret-key', swiftKey: 'diff-other-swift-key' },
};

export interface CofferServer {
  app: AppContext;
  port: number;
  close(): Promise<void>;
}

export async function startCoffer(): Promise<CofferServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coffer-differential-'));
  // The corpus makes a bucket or two per row: as many as RGW's users are allowed (suite.ts), past the default 1,000.
  const app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine: { noSync: true, expirySweepMs: 0, maxContainersPerAccount: 100_000 } });
  for (const u of [COFFER.owner, COFFER.other]) {
    await app.engine.createAccount({ id: u.account, displayName: u.account, keys: [{ accessKey: u.access, secretKey: u.secret }], swiftKeys: [{ sub: 'swift', secretKey: u.swiftKey }] });
  }
  return {
    app,
    port: app.server.port,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function cofferTargets(c: CofferServer, runTag: string): Promise<{ native: Target; s3: Target }> {
  const { owner, other } = COFFER;
  const identities: [string, string][] = [
    [`AUTH_${owner.account}`, 'AUTH_<owner>'],
    [`AUTH_${other.account}`, 'AUTH_<other>'],
    // As a path quotes them (`$` is %24): Swift quotes the account in the paths it builds (a
    // symlink's), and a bulk report names a container path so (`/v1/AUTH_diff%24tester/c`).
    [`AUTH_${encodeURIComponent(owner.account)}`, 'AUTH_<owner>'],
    [`AUTH_${encodeURIComponent(other.account)}`, 'AUTH_<other>'],
    [`${owner.account}:swift`, '<owner-user>'],
    [`${other.account}:swift`, '<other-user>'],
    [owner.account, '<owner>'],
    [other.account, '<other>'],
  ];
  const native = await nativeTarget(
    {
      name: 'coffer', label: 'Coffer', port: c.port, authPath: '/auth/1.0',
      owner: { user: `${owner.account}:swift`, key: owner.swiftKey }, other: { user: `${other.account}:swift`, key: other.swiftKey },
      identities, account: `AUTH_${owner.account}`, otherAccount: `AUTH_${other.account}`, otherAcl: other.account, v1: '/v1',
    },
    runTag,
  );
  const s3 = s3Target(
    { name: 'coffer', label: 'Coffer', port: c.port, owner: { accessKey: owner.access, secretKey: owner.secret }, other: { accessKey: other.access, secretKey: other.secret }, identities, ownerId: owner.account, otherId: other.account },
    runTag,
  );
  return { native, s3 };
}

export async function swiftTargets(e: SwiftEndpoints, version: string, runTag: string): Promise<{ native: Target; s3: Target }> {
  const port = Number(new URL(e.url).port);
  // The suite's own accounts: its writes must not move the counters other test files check.
  const { differential: tester, differentialOther: other } = e.users;
  const identities: [string, string][] = [
    [`AUTH_${tester.account}`, 'AUTH_<owner>'],
    [`AUTH_${other.account}`, 'AUTH_<other>'],
    [`${tester.account}:${tester.user}`, '<owner>'],
    [`${other.account}:${other.user}`, '<other>'],
  ];
  const native = await nativeTarget(
    {
      name: 'swift', label: `OpenStack Swift ${version}`, port, authPath: new URL(e.authUrl).pathname,
      owner: { user: `${tester.account}:${tester.user}`, key: tester.key }, other: { user: `${other.account}:${other.user}`, key: other.key },
      identities, account: `AUTH_${tester.account}`, otherAccount: `AUTH_${other.account}`, otherAcl: other.account, v1: '/v1',
    },
    runTag,
  );
  const s3 = s3Target(
    {
      name: 's3api', label: `Swift ${version} s3api`, port,
      owner: { accessKey: `${tester.account}:${tester.user}`, secretKey: tester.key }, other: { accessKey: `${other.account}:${other.user}`, secretKey: other.key },
      identities, ownerId: `${tester.account}:${tester.user}`, otherId: `${other.account}:${other.user}`,
    },
    runTag,
  );
  return { native, s3 };
}

export async function rgwTargets(e: RgwEndpoints, version: string, runTag: string): Promise<{ native: Target; s3: Target }> {
  const port = Number(new URL(e.url).port);
  const { differential: tester, differentialOther: other } = e.users;
  const identities: [string, string][] = [
    [`AUTH_${tester.uid}`, 'AUTH_<owner>'],
    [`AUTH_${other.uid}`, 'AUTH_<other>'],
    [tester.swiftUser, '<owner-user>'],
    [other.swiftUser, '<other-user>'],
    [tester.uid, '<owner>'],
    [other.uid, '<other>'],
  ];
  const native = await nativeTarget(
    {
      name: 'rgw-swift', label: `Ceph RGW ${version} Swift API`, port, authPath: new URL(e.authUrl).pathname,
      owner: { user: tester.swiftUser, key: tester.swiftKey }, other: { user: other.swiftUser, key: other.swiftKey },
      identities, account: `AUTH_${tester.uid}`, otherAccount: `AUTH_${other.uid}`, otherAcl: other.uid, v1: '/swift/v1',
    },
    runTag,
  );
  const s3 = s3Target(
    { name: 'rgw', label: `Ceph RGW ${version}`, port, owner: { accessKey: tester.accessKey, secretKey: tester.secretKey }, other: { accessKey: other.accessKey, secretKey: other.secretKey }, identities, ownerId: tester.uid, otherId: other.uid },
    runTag,
  );
  return { native, s3 };
}

/** The servers' own versions, for the report: Swift's /info, `radosgw --version`. */
export async function swiftVersion(e: SwiftEndpoints): Promise<string> {
  const r = await sendRaw(Number(new URL(e.url).port), 'GET', '/info', {}, Buffer.alloc(0));
  try {
    return (JSON.parse(r.body.toString('utf8')) as { swift: { version: string } }).swift.version;
  } catch {
    return 'unknown';
  }
}
