/**
 * A bug inside Coffer must still be answered in the API's own terms: a 500 that carries the
 * request-id headers of its API (and the S3 error document SDKs retry on), logged with that id,
 * and the server goes on. The bug is simulated by an engine call that throws a plain TypeError.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { startServer, type RunningServer } from '../../src-main/http/server.js';
import { errorOf, raw } from '../compat/server.js';
import { tempDir } from '../native/server.js';
import { ALICE, swiftLogin } from './served.js';

let engine: Engine;
let server: RunningServer;
let dataDir: string;
let token: string;
const lines: string[] = [];
const ACCT = `/v1/AUTH_${ALICE.account}`;

beforeAll(async () => {
  dataDir = tempDir('coffer-internal-');
  engine = await Engine.open(dataDir, { noSync: true, expirySweepMs: 0 });
  await engine.createAccount({ id: ALICE.account, keys: [{ accessKey: ALICE.accessKey, secretKey: ALICE.secretKey }], swiftKeys: [{ sub: 'swift', secretKey: ALICE.swiftKey }] });
  await engine.createContainer(ALICE.account, 'ie');
  server = await startServer({ engine, secret: engine.secret, host: '127.0.0.1', port: 0, log: (l) => lines.push(l) });
  token = (await swiftLogin(server.url, ALICE)).token;
  // The bug: reading a container's record throws what no handler expects.
  engine.getContainerForRequest = () => {
    throw new TypeError("Cannot read properties of undefined (reading 'owner')");
  };
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an internal error', () => {
  it('native: 500 with X-Trans-Id and X-Openstack-Request-Id, logged with that id', async () => {
    const r = await fetch(`${server.url}${ACCT}/ie`, { headers: { 'X-Auth-Token': token } });
    expect(r.status).toBe(500);
    const id = r.headers.get('x-trans-id');
    expect(id).toMatch(/^tx/);
    expect(r.headers.get('x-openstack-request-id')).toBe(id);
    expect(await r.text()).not.toContain('owner');
    expect(lines.some((l) => l.includes(`${id} internal error: TypeError`))).toBe(true);
  });

  it('S3: 500 InternalError with x-amz-request-id, and the server goes on answering', async () => {
    const r = await raw({ port: server.port }, 'GET', '/ie?list-type=2', { as: ALICE });
    expect([r.status, errorOf(r).Code]).toEqual([500, 'InternalError']);
    expect(r.headers['x-amz-request-id']).toBe(errorOf(r).RequestId);
    expect((await raw({ port: server.port }, 'GET', '/', { as: ALICE })).status).toBe(200);
  });
});
