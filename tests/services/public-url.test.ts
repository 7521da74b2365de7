// A public container's URL, as the app shows it after making the container public: anyone
// (no credentials) reads an object at that URL plus its name, through the local store, a remote
// S3 connection and a remote Swift connection (both to a real server on 127.0.0.1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { createClient } from '../../src-shared/rpc/client.js';

let dir: string;
let app: AppContext;
const connections: Record<string, string> = {};
const api = () => createClient(app.rpc.asTransport()).services;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-public-url-'));
  app = await createAppContext({ dataDir: join(dir, 'app'), port: 0, engine: { noSync: true } });
  // A second account, reached as a remote one over both APIs of the same server.
  const far = await app.engine.createAccount({ id: 'far$away', swiftKeys: [{ sub: 'swift' }] });
  const url = app.server.url;
  connections.local = `local:${app.localAccount.id}`;
  connections.s3 = (await api().accounts.add({ name: 's3', config: { kind: 's3', endpoint: url, accessKeyId: far.keys[0]!.accessKey, secretAccessKey: far.keys[0]!.secretKey } })).id;
  connections.swift = (await api().accounts.add({ name: 'swift', config: { kind: 'swift', authUrl: `${url}/auth/1.0`, auth: { type: 'v1', user: far.swiftKeys[0]!.user, key: far.swiftKeys[0]!.secretKey } } })).id;
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['local', 's3', 'swift'])('the public URL of a %s container', (kind) => {
  it('reads its objects without credentials once it is public', async () => {
    const account = connections[kind]!;
    const container = `pub-${kind}`;
    await api().browse.createContainer({ account, container });
    await api().browse.createFolder({ account, container, prefix: 'docs/' });
    const { url } = await api().browse.publicUrl({ account, container });
    expect(url).toMatch(new RegExp(`^${app.server.url}/.*${container}/$`));
    expect((await fetch(`${url}docs/`)).ok).toBe(false);
    await api().browse.setPublic({ account, container, on: true });
    const read = await fetch(`${url}docs/`);
    expect(read.status).toBe(200);
    // Remote URLs are built from the connection's settings, without a request; the local store looks.
    if (kind === 'local') await expect(api().browse.publicUrl({ account, container: 'no-such-container' })).rejects.toMatchObject({ code: 'NoSuchContainer' });
  });
});
