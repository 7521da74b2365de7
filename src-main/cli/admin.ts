import { type AccountInfo, Engine } from '../engine/index.js';

/** An account as `coffer user` prints it (field names as radosgw-admin uses them). */
export function userJson(a: AccountInfo) {
  return {
    user_id: a.id,
    tenant: a.tenant,
    display_name: a.displayName,
    keys: a.keys.map((k) => ({ user: a.id, access_key: k.accessKey, secret_key: k.secretKey })),
    swift_keys: a.swiftKeys.map((k) => ({ user: k.user, secret_key: k.secretKey })),
    max_buckets: a.maxContainers,
    user_quota: { max_size: a.quota.maxBytes, max_objects: a.quota.maxObjects },
    stats: { num_buckets: a.usage.containers, num_objects: a.usage.objects, size: a.usage.bytes, size_actual: a.usage.bytesActual },
  };
}

/** Deletes everything an account owns: every version of every object, unfinished uploads, containers. */
export async function purgeAccountData(engine: Engine, accountId: string): Promise<void> {
  for (const c of engine.listContainers(accountId)) {
    const ref = Engine.ref(accountId, c.name);
    for (;;) {
      const page = engine.listVersions(ref, { limit: 1000 });
      for (const e of page.entries) {
        if (e.kind === 'version') await engine.deleteObject(ref, e.name, { versionId: e.version.versionId ?? 'null' });
      }
      if (!page.truncated) break;
    }
    await engine.deleteContainer(ref);
  }
}
