// Seeds the e2e store directly through the engine, before the server opens the same data
// directory (one process at a time). Usage: node --import tsx tests/e2e/support/seed.ts DIR
import { Engine } from '../../../src-main/engine/engine.js';
import { ACCOUNT_ID, ARCHIVE, ARCHIVE_SMALL, BIG_COUNT, EDITS, EDITS_OBJECTS, EMPTY, LIVE, LONG, LONG_COUNT, OPS, OPS_OBJECTS, VERSIONED, VERSIONED_BODIES, VERSIONED_NAME, bigBody, bigName, longName, type SeedObject } from './seed-data.js';

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
  for (let i = 0; i < BIG_COUNT; i++) {
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
  for (let i = 0; i < LONG_COUNT; i++) {
    writes.push(engine.putObject(long, longName(i), 'x', { contentType: 'text/plain' }));
    if (writes.length >= 500) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
} finally {
  await engine.close();
}
