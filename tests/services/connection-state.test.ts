// Whether a remote connection works, as the app tells it: only a request the server
// authenticated says "connected" (not capabilities or a locally signed link), a wrong key or a
// server that went away says "error" once checked, and a check after it came back says
// "connected" again. The remotes are real: another app's S3 and Swift APIs on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { EventMap } from '../../src-shared/contract/events.js';
import type { ConnectionConfig } from '../../src-shared/model/connections.js';
import { createClient } from '../../src-shared/rpc/client.js';

let dir: string;
let app: AppContext;
let remote: AppContext;
let port: number;
const api = () => createClient(app.rpc.asTransport()).services;
const startRemote = (p = 0) => createAppContext({ dataDir: join(dir, 'remote'), port: p, engine: { noSync: true } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-connection-state-'));
  app = await createAppContext({ dataDir: join(dir, 'app'), port: 0, engine: { noSync: true } });
  remote = await startRemote();
  port = remote.server.port;
  await remote.engine.createContainer(remote.localAccount.id, 'shared');
});
afterAll(async () => {
  await app?.close();
  await remote?.close();
  rmSync(dir, { recursive: true, force: true });
});

function configs(secret?: string): Record<'s3' | 'swift', ConnectionConfig> {
  const user = remote.localAccount;
  const url = `http://127.0.0.1:${port}`;
  return {
    s3: { kind: 's3', endpoint: url, region: 'us-east-1', accessKeyId: user.keys[0]!.accessKey, secretAccessKey: secret ?? user.keys[0]!.secretKey, forcePathStyle: true },
    swift: { kind: 'swift', authUrl: `${url}/auth/1.0`, auth: { type: 'v1', user: user.swiftKeys[0]!.user, key: secret ?? user.swiftKeys[0]!.secretKey }, interface: 'public' },
  };
}

const stateOf = async (id: string) => (await api().accounts.list({})).find((c) => c.id === id)!;

describe.each(['s3', 'swift'] as const)('the state of a remote %s connection', (kind) => {
  it('with a wrong key: never "connected", even after calls that do not reach the server', async () => {
    const { id } = await api().accounts.add({ name: `${kind} wrong key`, config: configs('not-the-key')[kind] });
    expect((await stateOf(id)).state).toBe('unknown');
    await api().browse.capabilities({ account: id });
    await api().browse.shareLink({ account: id, container: 'shared', name: 'a.txt', expiresInSeconds: 60 }).catch(() => undefined);
    expect((await stateOf(id)).state).not.toBe('connected');
    const checked = await api().accounts.check({ id });
    expect(checked).toMatchObject({ id, state: 'error', error: expect.stringMatching(/\S/) });
    expect(await stateOf(id)).toMatchObject({ state: 'error', error: checked.error });
    await api().browse.capabilities({ account: id });
    expect((await stateOf(id)).state).toBe('error');
    await api().accounts.remove({ id });
  });

  it('follows the server: "error" once it is down and checked, "connected" when it is back', async () => {
    const { id } = await api().accounts.add({ name: `${kind} right key`, config: configs()[kind] });
    const events: EventMap['connection.state'][] = [];
    const off = createClient(app.rpc.asTransport()).on('connection.state', (e) => e.id === id && events.push(e));
    expect(await api().accounts.check({ id })).toEqual({ id, state: 'connected', error: null });

    await remote.close();
    const down = await api().accounts.check({ id });
    expect(down).toMatchObject({ state: 'error', error: expect.stringMatching(/reach|ECONNREFUSED|connect/i) });
    expect((await stateOf(id)).state).toBe('error');

    remote = await startRemote(port);
    expect(await api().accounts.check({ id })).toEqual({ id, state: 'connected', error: null });
    off();
    expect(events.map((e) => e.state)).toEqual(['connected', 'error', 'connected']);
    await api().accounts.remove({ id });
  });

  it('checks again after a failure that does not say what is wrong: a gateway answering 502 for a server that is gone', async () => {
    const { id } = await api().accounts.add({ name: `${kind} behind a gateway`, config: configs()[kind] });
    expect((await api().accounts.check({ id })).state).toBe('connected');
    await remote.close();
    const gateway = createServer((_req, res) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end('Bad Gateway'));
    await new Promise<void>((resolve) => gateway.listen(port, '127.0.0.1', resolve));
    try {
      await expect(api().browse.listContainers({ account: id })).rejects.toMatchObject({ code: expect.not.stringMatching(/^(AuthFailed|Unreachable)$/) });
      await vi.waitFor(async () => expect((await stateOf(id)).state).toBe('error'), { timeout: 20_000, interval: 100 });
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
      remote = await startRemote(port);
      await api().accounts.remove({ id });
    }
  });
});

describe('the local store', () => {
  it('is always connected and needs no check', async () => {
    const [local] = await api().accounts.list({});
    expect(await api().accounts.check({ id: local!.id })).toEqual({ id: local!.id, state: 'connected', error: null });
  });
});
