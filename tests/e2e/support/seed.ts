// Seeds the e2e store directly through the engine, before the server opens the same data
// directory (one process at a time). Usage: node --import tsx tests/e2e/support/seed.ts DIR
// (COFFER_SEED_SMALL=1 leaves out the 3,000-object folder and the 25,000-object container, for specs that start a store of their own).
import { Engine } from '../../../src-main/engine/index.js';
import { ACCOUNT_ID, OTHER_ACCOUNTS, ARCHIVE, ARCHIVE_SMALL, BIG_COUNT, EDITS, EDITS_OBJECTS, EMPTY, LIVE, LONG, LONG_COUNT, OPS, OPS_OBJECTS, VERSIONED, VERSIONED_BODIES, VERSIONED_NAME, bigBody, bigName, longName, type SeedObject } from './seed-data.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: seed.ts DATA_DIR');

// noSync: a throwaway test store; the server reopens it with the normal, durable options.
const engine = await Engine.open(dir, { noSync: true, expirySweepMs: 0 });
try {
  // The same first user `coffer serve` would create, so the server adopts it as the local store.
  const account = await engine.createAccount({ id: ACCOUNT_ID, displayName: 'Coffer admin', swiftKeys: [{ sub: 'swift' }] });
  for (const name of [ARCHIVE, EMPTY, LIVE, EDITS, OPS]) await engine.createContainer(account.id, name);
  const ref = Engine.ref(account.id, ARCHIVE);
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < (process.env.COFFER_SEED_SMALL ? 0 : BIG_COUNT); i++) {
    writes.push(engine.putObject(ref, bigName(i), bigBody(i), { contentType: 'text/plain' }));
    if (writes.length >= 200) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  const put = async (container: string, objects: SeedObject[]) => {
    const at = Engine.ref(account.id, container);
    for (const o of objects) {
      await engine.putObject(at, o.name, o.body, {
        ...(o.contentType ? { contentType: o.contentType } : {}),
        ...(o.meta ? { meta: o.meta } : {}),
        ...(o.cacheControl ? { headers: { cacheControl: o.cacheControl } } : {}),
      });
    }
  };
  await put(ARCHIVE, ARCHIVE_SMALL);
  await put(EDITS, EDITS_OBJECTS);
  await put(OPS, OPS_OBJECTS);
  const versioned = Engine.ref(account.id, VERSIONED);
  await engine.createContainer(account.id, VERSIONED);
  await engine.updateContainer(versioned, { versioning: 'enabled' });
  for (const body of VERSIONED_BODIES) await engine.putObject(versioned, VERSIONED_NAME, body, { contentType: 'text/plain' });
  await engine.createContainer(account.id, LONG);
  const long = Engine.ref(account.id, LONG);
  for (let i = 0; i < (process.env.COFFER_SEED_SMALL ? 0 : LONG_COUNT); i++) {
    writes.push(engine.putObject(long, longName(i), 'x', { contentType: 'text/plain' }));
    if (writes.length >= 500) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  for (const other of OTHER_ACCOUNTS) {
    await engine.createAccount({ id: other.id, displayName: other.displayName, swiftKeys: [{ sub: 'swift' }] });
    for (const [container, names] of Object.entries(other.containers)) {
      await engine.createContainer(other.id, container);
      for (const name of names) await engine.putObject(Engine.ref(other.id, container), name, `${other.displayName}: ${name}\n`, { contentType: 'text/plain' });
    }
  }
} finally {
  await engine.close();
}
