// Editing a saved remote connection: the app gets its settings back without a single secret, and
// an edit that leaves a secret empty keeps the saved one (same kind and sign-in type), so a
// new name, endpoint or user does not mean retyping the key. Checked against a real server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { createClient } from '../../src-shared/rpc/client.js';

let dir: string;
let app: AppContext;
const api = () => createClient(app.rpc.asTransport()).services;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-connection-edit-'));
  app = await createAppContext({ dataDir: join(dir, 'app'), port: 0, engine: { noSync: true } });
  await app.engine.createAccount({ id: 'team$ann', swiftKeys: [{ sub: 'swift' }, { sub: 'backup' }] });
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ann = () => app.engine.getAccount('team$ann');

describe('editing a saved connection', () => {
  it('S3: settings come back without the secret; an empty secret keeps the saved one', async () => {
    const key = ann().keys[0]!;
    const url = app.server.url;
    const { id } = await api().accounts.add({ name: 'ann s3', config: { kind: 's3', endpoint: url, accessKeyId: key.accessKey, secretAccessKey: key.secretKey, region: 'eu-1' } });
    const settings = await api().accounts.settings({ id });
    if (settings.kind !== 's3') throw new Error('not S3');
    expect(settings).toEqual({ kind: 's3', endpoint: url, region: 'eu-1', accessKeyId: key.accessKey, forcePathStyle: true });
    expect(JSON.stringify(settings)).not.toContain(key.secretKey);

    // The dialog sends every field back, the secret empty; the endpoint changes spelling.
    const edited = { ...settings, endpoint: `${url}/`, secretAccessKey: '' };
    expect(await api().accounts.test({ id, config: edited })).toMatchObject({ id: 'team$ann' });
    await api().accounts.update({ id, name: 'ann over s3', config: edited });
    expect(await api().accounts.check({ id })).toMatchObject({ state: 'connected' });
    expect(await api().accounts.settings({ id })).toMatchObject({ endpoint: `${url}/` });
    expect((await api().accounts.list({})).find((c) => c.id === id)?.name).toBe('ann over s3');

    // A new secret replaces the saved one (here a wrong one, which the server then refuses).
    await api().accounts.update({ id, config: { ...edited, secretAccessKey: 'typo' } });
    expect(await api().accounts.check({ id })).toMatchObject({ state: 'error' });
    await expect(api().accounts.test({ config: { ...edited, secretAccessKey: '' } })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('Swift: a new user with the key left empty keeps the saved key; another sign-in type needs its own secret', async () => {
    const [swift, backup] = ann().swiftKeys;
    // The second sub-user gets the same key, so the saved key signs it in once the user changes.
    await app.engine.addSwiftKey('team$ann', 'backup', swift!.secretKey);
    const authUrl = `${app.server.url}/auth/1.0`;
    const { id } = await api().accounts.add({ name: 'ann swift', config: { kind: 'swift', authUrl, auth: { type: 'v1', user: swift!.user, key: swift!.secretKey } } });
    const settings = await api().accounts.settings({ id });
    if (settings.kind !== 'swift') throw new Error('not Swift');
    expect(settings).toEqual({ kind: 'swift', authUrl, auth: { type: 'v1', user: swift!.user }, interface: 'public' });
    expect(JSON.stringify(settings)).not.toContain(swift!.secretKey);

    await api().accounts.update({ id, config: { ...settings, auth: { type: 'v1', user: backup!.user, key: '' } } });
    expect(await api().accounts.settings({ id })).toMatchObject({ auth: { type: 'v1', user: backup!.user } });
    expect(await api().accounts.check({ id })).toMatchObject({ state: 'connected' });

    const toPassword = { ...settings, auth: { type: 'password' as const, user: 'ann', project: 'p', password: '' } };
    await expect(api().accounts.update({ id, config: toPassword })).rejects.toMatchObject({ code: 'InvalidArgument', message: expect.stringContaining('password') });
    await expect(api().accounts.update({ id, config: { kind: 's3', endpoint: app.server.url, accessKeyId: 'AK', secretAccessKey: '' } })).rejects.toMatchObject({
      code: 'InvalidArgument',
      message: expect.stringContaining('secret key'),
    });
    // Nothing of the refused edits was saved.
    expect(await api().accounts.settings({ id })).toMatchObject({ kind: 'swift', auth: { user: backup!.user } });
  });
});
