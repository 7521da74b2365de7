/**
 * Holes found from outside in who may touch what, against the real `coffer serve`: a TempURL
 * signed by one account of a tenant reaching another account's container, containers reached
 * through an account path that is not theirs, and copies that told strangers whether a name
 * exists before telling them they may not ask.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, raw } from '../compat/server.js';
import { ALICE, MALLORY, servedStore, swiftLogin, type TestUser } from './served.js';

/** Bob shares Alice's tenant: the same container namespace, none of her rights. */
const BOB: TestUser = { account: 'rel$bob', accessKey: 'RELBOBACCESSKEY00003', secretKey: 'bob-reliability-secret-key-01234567890', swiftUser: 'rel$bob:swift', swiftKey: 'rel$bob-swift-key' };

let store: Awaited<ReturnType<typeof servedStore>>;
let base: string;
const tokens: Record<string, string> = {};
const ALICE_PATH = `/v1/AUTH_${ALICE.account}`;
const BOB_PATH = `/v1/AUTH_${BOB.account}`;
const MALLORY_PATH = `/v1/AUTH_${MALLORY.account}`;

async function swift(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, text: await res.text(), headers: res.headers };
}
const as = (who: TestUser | undefined, headers: Record<string, string> = {}) => (who ? { 'X-Auth-Token': tokens[who.account]!, ...headers } : headers);

async function aliceObject(name: string): Promise<{ status: number; text: string; meta: string | null }> {
  const r = await swift('GET', `${ALICE_PATH}/${name}`, as(ALICE));
  return { status: r.status, text: r.text, meta: r.headers.get('x-object-meta-k') };
}

beforeAll(async () => {
  store = await servedStore('security-access', [ALICE, BOB, MALLORY]);
  base = store.server.url;
  for (const u of [ALICE, BOB, MALLORY]) tokens[u.account] = (await swiftLogin(base, u)).token;
  const ok = (r: { status: number }) => expect(r.status).toBeLessThan(300);
  ok(await swift('PUT', `${ALICE_PATH}/ac`, as(ALICE)));
  ok(await swift('PUT', `${ALICE_PATH}/ac/o`, as(ALICE, { 'X-Object-Meta-K': 'v' }), 'alice bytes'));
  ok(await swift('PUT', `${BOB_PATH}/bc`, as(BOB)));
  ok(await swift('PUT', `${BOB_PATH}/bc/b`, as(BOB), 'bob bytes'));
  ok(await swift('PUT', `${MALLORY_PATH}/mc`, as(MALLORY)));
  ok(await swift('POST', BOB_PATH, as(BOB, { 'X-Account-Meta-Temp-URL-Key': 'bobs-key' })));
});
afterAll(async () => {
  await store?.close();
});

function signed(method: string, path: string, key = 'bobs-key'): string {
  const expires = Math.floor(Date.now() / 1000) + 300;
  const sig = createHmac('sha256', key).update(`${method}\n${expires}\n${path}`).digest('hex');
  return `${path}?temp_url_sig=${sig}&temp_url_expires=${expires}`;
}

describe('a TempURL acts exactly as its signing account would with a token', () => {
  it("Bob's key signs for his own objects", async () => {
    const r = await swift('GET', signed('GET', `${BOB_PATH}/bc/b`));
    expect([r.status, r.text]).toEqual([200, 'bob bytes']);
  });

  it("Bob's key, through his own account path, reaches nothing of Alice's (same tenant)", async () => {
    const attempts: [string, string?, Record<string, string>?][] = [
      ['GET'],
      ['HEAD'],
      ['PUT', 'overwritten'],
      ['POST', undefined, { 'X-Object-Meta-K': 'changed' }],
      ['DELETE'],
    ];
    const got: string[] = [];
    for (const [method, body, headers] of attempts) {
      const r = await swift(method, signed(method, `${BOB_PATH}/ac/o`), headers ?? {}, body);
      // Bob's token on the same path is refused with 403: the TempURL must not do more.
      const withToken = await swift(method, `${BOB_PATH}/ac/o`, as(BOB, headers ?? {}), body);
      got.push(`${method} ${r.status} ${withToken.status}${r.text.includes('alice bytes') ? ' leaked' : ''}`);
    }
    expect(got).toEqual(['GET 403 403', 'HEAD 403 403', 'PUT 403 403', 'POST 403 403', 'DELETE 403 403']);
    expect(await aliceObject('ac/o')).toEqual({ status: 200, text: 'alice bytes', meta: 'v' });
  });

  it("Bob's key does not sign for Alice's account path", async () => {
    const r = await swift('GET', signed('GET', `${ALICE_PATH}/ac/o`));
    expect(r.status).toBe(401);
  });

  it("a container is reached only through its own account's path, even by its owner", async () => {
    // Alice's token naming Bob's account path: not her storage URL, so not her container there.
    expect((await swift('GET', `${BOB_PATH}/ac/o`, as(ALICE))).status).toBe(403);
    expect((await swift('GET', `${ALICE_PATH}/ac/o`, as(ALICE))).status).toBe(200);
  });

  it('a container ACL that grants Bob lets him in through his own path and through Alice\'s', async () => {
    expect((await swift('PUT', `${ALICE_PATH}/shared`, as(ALICE, { 'X-Container-Read': BOB.account }))).status).toBe(201);
    expect((await swift('PUT', `${ALICE_PATH}/shared/s`, as(ALICE), 'shared bytes')).status).toBe(201);
    expect((await swift('GET', `${ALICE_PATH}/shared/s`, as(BOB))).text).toBe('shared bytes');
    expect((await swift('GET', `${BOB_PATH}/shared/s`, as(BOB))).text).toBe('shared bytes');
    expect((await swift('GET', signed('GET', `${BOB_PATH}/shared/s`))).text).toBe('shared bytes');
    expect((await swift('PUT', signed('PUT', `${BOB_PATH}/shared/s`), {}, 'x')).status).toBe(403);
  });
});

describe('nobody learns whether a name exists before they are allowed to ask', () => {
  /** The same request with a name that exists and one that does not must get the same answer. */
  async function sameAnswer(label: string, attempt: (existing: boolean) => Promise<{ status: number }>, expected: number) {
    const [yes, no] = [await attempt(true), await attempt(false)];
    return `${label}: ${yes.status}/${no.status}${yes.status === expected && no.status === expected ? '' : ` (expected ${expected})`}`;
  }

  it('native copies: X-Copy-From, X-Copy-From-Account, COPY with Destination and Destination-Account', async () => {
    const lines = [
      await sameAnswer('anonymous PUT X-Copy-From, source container', (e) => swift('PUT', `${ALICE_PATH}/ac/x`, { 'X-Copy-From': e ? 'ac/o' : 'no-such-container/x' }), 401),
      await sameAnswer('anonymous PUT X-Copy-From, source object', (e) => swift('PUT', `${ALICE_PATH}/ac/x`, { 'X-Copy-From': e ? 'ac/o' : 'ac/no-such-object' }), 401),
      await sameAnswer('anonymous COPY, destination container', (e) => swift('COPY', `${ALICE_PATH}/ac/o`, { Destination: e ? 'ac/y' : 'no-such-container/y' }), 401),
      await sameAnswer('anonymous COPY, source object', (e) => swift('COPY', `${ALICE_PATH}/ac/${e ? 'o' : 'no-such-object'}`, { Destination: 'ac/y' }), 401),
      await sameAnswer('Mallory PUT X-Copy-From-Account (other tenant)', (e) => swift('PUT', `${MALLORY_PATH}/mc/x`, as(MALLORY, { 'X-Copy-From-Account': ALICE.account, 'X-Copy-From': e ? 'ac/o' : 'no-such-container/x' })), 403),
      await sameAnswer('Mallory PUT X-Copy-From-Account, object', (e) => swift('PUT', `${MALLORY_PATH}/mc/x`, as(MALLORY, { 'X-Copy-From-Account': ALICE.account, 'X-Copy-From': e ? 'ac/o' : 'ac/no-such-object' })), 403),
      await sameAnswer('Bob PUT X-Copy-From-Account (same tenant)', (e) => swift('PUT', `${BOB_PATH}/bc/x`, as(BOB, { 'X-Copy-From-Account': ALICE.account, 'X-Copy-From': e ? 'ac/o' : 'no-such-container/x' })), 403),
      await sameAnswer('Bob PUT X-Copy-From through his own path', (e) => swift('PUT', `${BOB_PATH}/bc/x`, as(BOB, { 'X-Copy-From': e ? 'ac/o' : 'ac/no-such-object' })), 403),
      await sameAnswer('Mallory COPY into Alice (Destination-Account)', (e) => swift('COPY', `${MALLORY_PATH}/mc/m`, as(MALLORY, { 'Destination-Account': ALICE.account, Destination: e ? 'ac/z' : 'no-such-container/z' })), 403),
    ];
    expect(lines.filter((l) => l.includes('expected'))).toEqual([]);
    expect((await swift('PUT', `${MALLORY_PATH}/mc/m`, as(MALLORY), 'm')).status).toBe(201);
    expect(await aliceObject('ac/x')).toMatchObject({ status: 404 });
    expect(await aliceObject('ac/y')).toMatchObject({ status: 404 });
    expect(await aliceObject('ac/z')).toMatchObject({ status: 404 });
  });

  it('the owner still gets 404 for what is missing', async () => {
    expect((await swift('PUT', `${ALICE_PATH}/ac/x`, as(ALICE, { 'X-Copy-From': 'no-such-container/x' }))).status).toBe(404);
    expect((await swift('PUT', `${ALICE_PATH}/ac/x`, as(ALICE, { 'X-Copy-From': 'ac/no-such-object' }))).status).toBe(404);
    expect((await swift('COPY', `${ALICE_PATH}/ac/o`, as(ALICE, { Destination: 'no-such-container/y' }))).status).toBe(404);
  });

  it('S3 CopyObject and UploadPartCopy from another account\'s bucket: AccessDenied whether the key exists or not', async () => {
    const s = { port: store.server.port };
    expect((await raw(s, 'PUT', '/mbk', { as: MALLORY })).status).toBe(200);
    const results: string[] = [];
    for (const source of ['/rel:ac/o', '/rel:ac/no-such-object', '/rel:ac/o?versionId=nope']) {
      const r = await raw(s, 'PUT', '/mbk/copy', { as: MALLORY, headers: { 'x-amz-copy-source': source } });
      results.push(`${source} ${r.status} ${errorOf(r).Code}`);
    }
    // Bob names Alice's bucket without a tenant: it is in his tenant's namespace.
    for (const source of ['/ac/o', '/ac/no-such-object']) {
      const r = await raw(s, 'PUT', '/bc/copy', { as: BOB, headers: { 'x-amz-copy-source': source } });
      results.push(`bob ${source} ${r.status} ${errorOf(r).Code}`);
    }
    expect(results).toEqual([
      '/rel:ac/o 403 AccessDenied',
      '/rel:ac/no-such-object 403 AccessDenied',
      '/rel:ac/o?versionId=nope 403 AccessDenied',
      'bob /ac/o 403 AccessDenied',
      'bob /ac/no-such-object 403 AccessDenied',
    ]);
  });
});
