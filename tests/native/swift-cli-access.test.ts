// Real clients against the native API's access rules: the `swift` command and python-swiftclient,
// signed in as the owner, as users of a second account (two sub-users, so an ACL naming one
// `<account>:<user>` can be told from one naming the account) and of a third, on a server started
// in-process on a loopback port. Container ACL forms, account ACLs (X-Account-Access-Control) and
// cross-account copies (Destination-Account, X-Copy-From-Account), as Swift's tempauth decides.
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, call, OTHER_ACCOUNT, OTHER_KEY, OTHER_USER, startTestServer, SWIFT_KEY, SWIFT_USER, tempDir, v1Auth, type TestServer } from './server.js';
import { python, statFields, swiftClientEnv } from './swift-tools.js';

let s: TestServer;
let work: string;
/** The other account's second sub-user, and a third account with a sub-user of the same name. */
const BOB = { user: `${OTHER_ACCOUNT}:bob`, key: 'bob-secret-key' };
const THIRD_ACCOUNT = 'test$third';
const THIRD_BOB = { user: `${THIRD_ACCOUNT}:bob`, key: 'third-bob-key' };
let ownerUrl: string;
let otherUrl: string;

beforeAll(async () => {
  s = await startTestServer();
  work = tempDir('coffer-swift-access-');
  await s.engine.addSwiftKey(OTHER_ACCOUNT, 'bob', BOB.key);
  await s.engine.createAccount({ id: THIRD_ACCOUNT, swiftKeys: [{ sub: 'bob', secretKey: THIRD_BOB.key }] });
  ownerUrl = s.storageUrl;
  otherUrl = s.otherStorageUrl;
});
afterAll(async () => {
  await s?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
interface As {
  user: string;
  key: string;
}
const OWNER: As = { user: SWIFT_USER, key: SWIFT_KEY };
const OTHER: As = { user: OTHER_USER, key: OTHER_KEY };

/** The environment for the clients: only the given credentials, no proxies, no OpenStack settings. */
const clientEnv = (as: As) => swiftClientEnv({ ST_AUTH: s.authUrl, ST_USER: as.user, ST_KEY: as.key });

function run(file: string, args: string[], as: As): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: work, env: clientEnv(as), timeout: 50_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `swift …` as a user, on another account's storage URL when `at` is given. */
function swift(as: As, args: string[], at?: string): Promise<Run> {
  return run('swift', [...(at ? ['--os-storage-url', at] : []), ...args], as);
}

async function ok(p: Promise<Run>): Promise<Run> {
  const r = await p;
  expect(r.code, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
  return r;
}

/** Refused with 403 (the swift command prints the status of the failed request). */
async function forbidden(p: Promise<Run>): Promise<void> {
  const r = await p;
  expect(r.code, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).not.toBe(0);
  expect(`${r.stdout}${r.stderr}`).toMatch(/403/);
}


/** Runs a python-swiftclient script as a user (argv: auth URL, user, key); its last line of stdout is JSON. */
async function py(as: As, script: string): Promise<unknown> {
  const file = join(work, `script-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, script);
  const r = await run(python(), [file, s.authUrl, as.user, as.key], as);
  expect(r.code, `python: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

let n = 0;
const fresh = (label: string) => `${label}-${++n}`;

describe('container ACLs naming users and accounts (swift CLI)', { timeout: 180_000 }, () => {
  it('<account>:<user> grants that user only; <account> every user of the account; *:<user> that user name in any account', async () => {
    const c = fresh('acl-forms');
    await ok(swift(OWNER, ['upload', '--object-name', 'o', c, '/etc/hostname']));
    const list = (as: As) => swift(as, ['list', c], ownerUrl);
    await forbidden(list(BOB));

    await ok(swift(OWNER, ['post', '-r', `${OTHER_ACCOUNT}:bob`, c]));
    expect((await ok(list(BOB))).stdout.trim()).toBe('o');
    await forbidden(list(OTHER));
    await forbidden(list(THIRD_BOB));

    await ok(swift(OWNER, ['post', '-r', OTHER_ACCOUNT, c]));
    await ok(list(BOB));
    await ok(list(OTHER));
    await forbidden(list(THIRD_BOB));

    await ok(swift(OWNER, ['post', '-r', '*:bob', c]));
    await ok(list(BOB));
    await ok(list(THIRD_BOB));
    await forbidden(list(OTHER));
    // A reader downloads, but does not write.
    expect((await ok(swift(THIRD_BOB, ['download', c, 'o', '-o', '-'], ownerUrl))).stdout.length).toBeGreaterThan(0);
    await forbidden(swift(THIRD_BOB, ['upload', '--object-name', 'intruder', c, '/etc/hostname'], ownerUrl));
  });

  it('a write ACL naming <account>:<user> lets that user upload and delete, no one else of the account', async () => {
    const c = fresh('acl-write');
    await ok(swift(OWNER, ['post', '-w', `${OTHER_ACCOUNT}:bob`, c]));
    // --leave-segments: no HEAD of the object first (a writer may not read).
    await ok(swift(BOB, ['upload', '--leave-segments', '--object-name', 'from-bob', c, '/etc/hostname'], ownerUrl));
    await forbidden(swift(OTHER, ['upload', '--leave-segments', '--object-name', 'from-other', c, '/etc/hostname'], ownerUrl));
    expect((await ok(swift(OWNER, ['list', c]))).stdout.trim()).toBe('from-bob');
    await ok(swift(BOB, ['delete', '--leave-segments', c, 'from-bob'], ownerUrl));
    expect((await ok(swift(OWNER, ['list', c]))).stdout.trim()).toBe('');
    // Only the owner sees who holds rights.
    expect(statFields((await ok(swift(OWNER, ['stat', c]))).stdout)['Write ACL']).toBe(`${OTHER_ACCOUNT}:bob`);
  });
});

describe('account ACLs (X-Account-Access-Control, swift CLI)', { timeout: 180_000 }, () => {
  const setAcl = (acl: object | string) => swift(OWNER, ['post', '-H', `X-Account-Access-Control: ${typeof acl === 'string' ? acl : JSON.stringify(acl)}`]);

  it('read-only: lists the account and its containers and downloads; writes nothing; the ACL and TempURL keys are not shown', async () => {
    const c = fresh('acct-ro');
    await ok(swift(OWNER, ['upload', '--object-name', 'o', c, '/etc/hostname']));
    await ok(swift(OWNER, ['post', '-m', 'Temp-URL-Key:owner-secret']));
    await forbidden(swift(BOB, ['list'], ownerUrl));
    await ok(setAcl({ 'read-only': [BOB.user] }));
    try {
      expect((await ok(swift(BOB, ['list'], ownerUrl))).stdout.split('\n')).toContain(c);
      expect((await ok(swift(BOB, ['list', c], ownerUrl))).stdout.trim()).toBe('o');
      await ok(swift(BOB, ['download', c, 'o', '-o', '-'], ownerUrl));
      const stat = statFields((await ok(swift(BOB, ['stat'], ownerUrl))).stdout);
      expect(stat.Containers).toBeDefined();
      expect(stat['Meta Temp-Url-Key']).toBeUndefined();
      const head = await call(s, 'HEAD', '', { token: (await v1Auth(s.url, BOB.user, BOB.key)).token });
      expect(head.headers.get('x-account-access-control')).toBeNull();
      expect(head.headers.get('x-account-meta-temp-url-key')).toBeNull();
      await forbidden(swift(BOB, ['upload', '--object-name', 'x', c, '/etc/hostname'], ownerUrl));
      await forbidden(swift(BOB, ['post', fresh('new-container')], ownerUrl));
      await forbidden(swift(BOB, ['delete', c, 'o'], ownerUrl));
      // Other users of the same account are not named.
      await forbidden(swift(OTHER, ['list'], ownerUrl));
      // The owner sees the ACL as Swift formats it.
      const own = await call(s, 'HEAD', '');
      expect(own.headers.get('x-account-access-control')).toBe(`{"read-only":["${BOB.user}"]}`);
    } finally {
      await ok(setAcl(''));
      await ok(swift(OWNER, ['post', '-m', 'Temp-URL-Key:']));
    }
    await forbidden(swift(BOB, ['list'], ownerUrl));
    expect((await call(s, 'HEAD', '')).headers.get('x-account-access-control')).toBeNull();
  });

  it('read-write: creates containers, uploads and deletes anywhere in the account, but changes neither the account nor container ACLs', async () => {
    const c = fresh('acct-rw');
    await ok(swift(OWNER, ['post', c]));
    await ok(setAcl({ 'read-write': [OTHER_ACCOUNT] }));
    try {
      const made = fresh('made-by-bob');
      await ok(swift(BOB, ['upload', '--object-name', 'o', made, '/etc/hostname'], ownerUrl));
      await ok(swift(OTHER, ['upload', '--object-name', 'o', c, '/etc/hostname'], ownerUrl));
      // The container is the account's, not the writer's.
      expect((await ok(swift(OWNER, ['list', made]))).stdout.trim()).toBe('o');
      await ok(swift(BOB, ['delete', c, 'o'], ownerUrl));
      await forbidden(swift(BOB, ['post', '-m', 'Color:red'], ownerUrl));
      // A container ACL in a read-write user's request is dropped, as Swift drops it.
      await ok(swift(BOB, ['post', '-r', '.r:*', '-m', 'Color:red', c], ownerUrl));
      const stat = statFields((await ok(swift(OWNER, ['stat', c]))).stdout);
      expect(stat['Meta Color']).toBe('red');
      expect(stat['Read ACL']).toBe('');
    } finally {
      await ok(setAcl(''));
    }
  });

  it('admin: acts as the owner (metadata, privileged headers) but only the owner sets the account ACL', async () => {
    await ok(setAcl({ admin: [BOB.user] }));
    try {
      await ok(swift(BOB, ['post', '-m', 'Set-By:bob'], ownerUrl));
      const stat = statFields((await ok(swift(OWNER, ['stat']))).stdout);
      expect(stat['Meta Set-By']).toBe('bob');
      const bobToken = (await v1Auth(s.url, BOB.user, BOB.key)).token;
      expect((await call(s, 'HEAD', '', { token: bobToken })).headers.get('x-account-access-control')).toBe(`{"admin":["${BOB.user}"]}`);
      const grab = await call(s, 'POST', '', { token: bobToken, headers: { 'X-Account-Access-Control': JSON.stringify({ admin: [BOB.user, OTHER_USER] }) } });
      expect(grab.status).toBe(403);
      expect((await call(s, 'HEAD', '')).headers.get('x-account-access-control')).toBe(`{"admin":["${BOB.user}"]}`);
    } finally {
      await ok(setAcl(''));
    }
  });

  it('a malformed ACL is refused with tempauth\'s reason', async () => {
    for (const [acl, reason] of [
      ['not json', "Syntax error in input ('not json')"],
      ['["admin"]', 'Syntax error in input (\'["admin"]\')'],
      ['{"owner":["x"]}', 'Key "owner" not recognized'],
      ['{"admin":"x"}', 'Value for key "admin" must be a list'],
      ['{"read-only":[1]}', 'Elements of "read-only" list must be strings'],
    ] as const) {
      const r = await call(s, 'POST', '', { headers: { 'X-Account-Access-Control': acl } });
      expect([acl, r.status, r.text]).toEqual([acl, 400, `X-Account-Access-Control invalid: ${reason}\n\nInput: ${acl}\n`]);
    }
    expect((await call(s, 'HEAD', '')).headers.get('x-account-access-control')).toBeNull();
  });
});

describe('cross-account copy (python-swiftclient)', () => {
  const SCRIPT = `
import json, sys
from swiftclient.client import Connection, ClientException
auth, user, key = sys.argv[1:4]
conn = Connection(authurl=auth, user=user, key=key, retries=0)
out = {}
def attempt(name, fn):
    try:
        fn()
        out[name] = 'ok'
    except ClientException as e:
        out[name] = e.http_status
`;

  it('Destination-Account writes into a container another account grants write on; read on the source is the caller\'s own', async () => {
    const src = fresh('xsrc');
    const dst = fresh('xdst');
    await call(s, 'PUT', `/${src}`);
    await call(s, 'PUT', `/${src}/obj`, { body: 'cross-account bytes', headers: { 'X-Object-Meta-Color': 'red' } });
    await call(s, 'PUT', `/${dst}`, { base: otherUrl, token: s.otherToken });
    const script = `${SCRIPT}
attempt('denied', lambda: conn.copy_object('${src}', 'obj', '/${dst}/copied', headers={'Destination-Account': 'AUTH_${OTHER_ACCOUNT}'}))
print(json.dumps(out))
`;
    expect(await py(OWNER, script)).toEqual({ denied: 403 });
    await call(s, 'POST', `/${dst}`, { base: otherUrl, token: s.otherToken, headers: { 'X-Container-Write': ACCOUNT } });
    expect(await py(OWNER, script)).toEqual({ denied: 'ok' });
    const copied = await call(s, 'GET', `/${dst}/copied`, { base: otherUrl, token: s.otherToken });
    expect([copied.status, copied.text, copied.headers.get('x-object-meta-color')]).toEqual([200, 'cross-account bytes', 'red']);
  });

  it('X-Copy-From-Account reads from another account where its ACL grants read; a stranger learns nothing of what exists', async () => {
    const theirs = fresh('theirs');
    const mine = fresh('mine');
    await call(s, 'PUT', `/${theirs}`, { base: otherUrl, token: s.otherToken });
    await call(s, 'PUT', `/${theirs}/obj`, { base: otherUrl, token: s.otherToken, body: 'their bytes' });
    await call(s, 'PUT', `/${mine}`);
    const script = `${SCRIPT}
h = lambda o: {'X-Copy-From': '/${theirs}/' + o, 'X-Copy-From-Account': 'AUTH_${OTHER_ACCOUNT}'}
attempt('existing', lambda: conn.put_object('${mine}', 'copy', contents=b'', headers=h('obj')))
attempt('missing', lambda: conn.put_object('${mine}', 'copy2', contents=b'', headers=h('nope')))
attempt('no-container', lambda: conn.put_object('${mine}', 'copy3', contents=b'', headers={'X-Copy-From': '/nosuch-${theirs}/obj', 'X-Copy-From-Account': 'AUTH_${OTHER_ACCOUNT}'}))
attempt('no-account', lambda: conn.put_object('${mine}', 'copy4', contents=b'', headers={'X-Copy-From': '/${theirs}/obj', 'X-Copy-From-Account': 'AUTH_test$nosuch'}))
print(json.dumps(out))
`;
    expect(await py(OWNER, script)).toEqual({ existing: 403, missing: 403, 'no-container': 403, 'no-account': 403 });
    // Read granted to the owner's Swift user by name: the copy works, a missing source is then a 404.
    await call(s, 'POST', `/${theirs}`, { base: otherUrl, token: s.otherToken, headers: { 'X-Container-Read': SWIFT_USER } });
    expect(await py(OWNER, script)).toEqual({ existing: 'ok', missing: 404, 'no-container': 403, 'no-account': 403 });
    const got = await call(s, 'GET', `/${mine}/copy`);
    expect([got.status, got.text, got.headers.get('x-copied-from-account')]).toEqual([200, 'their bytes', null]);
  });

  it('the copy answer names the source account (X-Copied-From-Account); an account ACL grants the copy too', async () => {
    const theirs = fresh('theirs-acct');
    const mine = fresh('mine-acct');
    await call(s, 'PUT', `/${theirs}`, { base: otherUrl, token: s.otherToken });
    await call(s, 'PUT', `/${theirs}/obj`, { base: otherUrl, token: s.otherToken, body: 'via account acl' });
    await call(s, 'PUT', `/${mine}`);
    const copy = () => call(s, 'PUT', `/${mine}/copy`, { headers: { 'X-Copy-From': `${theirs}/obj`, 'X-Copy-From-Account': `AUTH_${OTHER_ACCOUNT}` } });
    expect((await copy()).status).toBe(403);
    await call(s, 'POST', '', { base: otherUrl, token: s.otherToken, headers: { 'X-Account-Access-Control': JSON.stringify({ 'read-only': [ACCOUNT] }) } });
    try {
      const r = await copy();
      expect([r.status, r.headers.get('x-copied-from-account'), r.headers.get('x-copied-from')]).toEqual([201, `AUTH_${OTHER_ACCOUNT}`, `${theirs}/obj`]);
      expect((await call(s, 'GET', `/${mine}/copy`)).text).toBe('via account acl');
    } finally {
      await call(s, 'POST', '', { base: otherUrl, token: s.otherToken, headers: { 'X-Account-Access-Control': '' } });
    }
  });
});
