// The contract suite on the embedded store, straight through the engine; public reads and share
// links are checked over the real server (both APIs must agree on what public means).
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../../src-main/backends/local.js';
import { Engine } from '../../src-main/engine/index.js';
import { ALICE, clientFor, startS3Server, encodePath } from '../compat/server.js';
import { describeBackendContract } from './contract.js';
import { anonymousGet, containerName, expectCode } from './helpers.js';

describeBackendContract('local', async () => {
  const server = await startS3Server({ users: [ALICE] });
  const backend = new LocalBackend(server.engine, ALICE.account, { endpoint: server.url });
  const s3 = clientFor(server.url, ALICE, { forcePathStyle: true });
  return {
    backend,
    publicUrl: (c, name) => `${server.url}${encodePath(`/${c}/${name}`)}`,
    // The engine keeps S3 Object Lock (issue 26): a container made with it keeps versioning on.
    honoursObjectLock: true,
    s3,
    close: async () => {
      s3.destroy();
      backend.close();
      await server.close();
    },
  };
});

describe('LocalBackend specifics', () => {
  it('a public container is public through the native API too (and lists there)', async () => {
    const server = await startS3Server({ users: [ALICE] });
    try {
      const backend = new LocalBackend(server.engine, ALICE.account, { endpoint: server.url });
      const c = containerName('native');
      await backend.createContainer(c);
      await backend.createFolder(c, 'f');
      const native = `${server.url}/swift/v1/AUTH_${ALICE.account}/${c}`;
      expect((await anonymousGet(`${native}/f/`)).status).toBe(401);
      await backend.setPublic(c, undefined, true);
      expect((await anonymousGet(`${native}/f/`)).status).toBe(200);
      expect((await anonymousGet(`${native}?format=json`)).status).toBe(200);
      expect((await anonymousGet(`${server.url}/${c}`)).status).toBe(200);
      await backend.setPublic(c, undefined, false);
      expect((await anonymousGet(`${native}/f/`)).status).toBe(401);
      expect((await anonymousGet(`${server.url}/${c}`)).status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('turning public read off keeps other read grants', async () => {
    const server = await startS3Server({ users: [ALICE] });
    try {
      const backend = new LocalBackend(server.engine, ALICE.account);
      const c = containerName('grants');
      await backend.createContainer(c);
      const ref = Engine.ref(ALICE.account, c);
      await server.engine.updateContainer(ref, { acl: { read: 'test$bob' } });
      await backend.setPublic(c, undefined, true);
      expect(server.engine.getContainer(ref).acl.read).toBe('test$bob,.r:*,.rlistings');
      await backend.setPublic(c, undefined, false);
      expect(server.engine.getContainer(ref).acl.read).toBe('test$bob');
    } finally {
      await server.close();
    }
  });

  it('without the server URL there are no share links (and capabilities say so)', async () => {
    const server = await startS3Server({ users: [ALICE] });
    try {
      const backend = new LocalBackend(server.engine, ALICE.account);
      expect(backend.capabilities().shareLinks).toBe(false);
      await expectCode(backend.shareLink('c', 'o', 60), 'NotSupported');
    } finally {
      await server.close();
    }
  });
});
