// Inspects a data directory no server is running on: what recovery must leave behind is an index
// whose every blob reference has its file, no file without a reference, nothing in tmp/ and no
// pending intents. Usage counters are compared with a recount of the index itself.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineContext } from '../../src-main/engine/context.js';
import { Engine } from '../../src-main/engine/engine.js';
import { roundUp4k, type ObjectRecord } from '../../src-main/engine/types.js';

export interface AuditReport {
  problems: string[];
  blobFiles: number;
  objects: number;
}

function blobFiles(dir: string): Set<string> {
  const out = new Set<string>();
  for (const sub of readdirSync(join(dir, 'blobs'))) for (const f of readdirSync(join(dir, 'blobs', sub))) out.add(f);
  return out;
}

/** Opens the store without recovery (so it sees exactly what the server left) and checks it. */
export async function auditStore(dataDir: string): Promise<AuditReport> {
  const engine = await Engine.open(dataDir, { recover: false, expirySweepMs: 0 });
  const ctx = (engine as unknown as { ctx: EngineContext }).ctx;
  const problems: string[] = [];
  try {
    const tmp = readdirSync(join(dataDir, 'tmp'));
    if (tmp.length) problems.push(`${tmp.length} file(s) left in tmp/: ${tmp.slice(0, 3).join(', ')}`);
    const intents = [...ctx.store.intents.getKeys({})];
    if (intents.length) problems.push(`${intents.length} intent(s) left pending`);

    const referenced = new Set<string>();
    const inlineRefs = new Set<string>();
    const note = (rec: ObjectRecord) => {
      if ('segments' in rec.data) for (const s of rec.data.segments) referenced.add(s.blob);
      else if ('inline' in rec.data) inlineRefs.add(rec.data.inline);
    };
    let objects = 0;
    for (const { value } of ctx.store.objects.getRange({})) {
      note(value);
      objects++;
    }
    for (const { value } of ctx.store.versions.getRange({})) note(value);
    for (const { value } of ctx.store.parts.getRange({})) referenced.add(value.blob);
    const files = blobFiles(dataDir);
    const leaked = [...files].filter((f) => !referenced.has(f));
    const missing = [...referenced].filter((f) => !files.has(f));
    if (leaked.length) problems.push(`${leaked.length} blob file(s) referenced by nothing: ${leaked.slice(0, 3).join(', ')}`);
    if (missing.length) problems.push(`${missing.length} referenced blob file(s) missing: ${missing.slice(0, 3).join(', ')}`);
    const inlineKeys = new Set([...ctx.store.inline.getKeys({})].map(String));
    const strayInline = [...inlineKeys].filter((k) => !inlineRefs.has(k)).length;
    const missingInline = [...inlineRefs].filter((k) => !inlineKeys.has(k)).length;
    if (strayInline) problems.push(`${strayInline} inline entr(ies) referenced by nothing`);
    if (missingInline) problems.push(`${missingInline} referenced inline entr(ies) missing`);

    // Every container's and account's counters against a recount of the current records (an SLO
    // manifest counts its document's bytes and stores none; its segments are counted where they live).
    const byCid = new Map<number, { objects: number; bytes: number; bytesActual: number }>();
    for (const { key, value } of ctx.store.objects.getRange({})) {
      if (value.deleteMarker) continue;
      const cid = key.readUInt32BE(0);
      const r = byCid.get(cid) ?? { objects: 0, bytes: 0, bytesActual: 0 };
      r.objects++;
      r.bytes += value.manifest?.kind === 'slo' ? (value.manifest.documentBytes ?? 0) : value.size;
      r.bytesActual += roundUp4k(value.size);
      byCid.set(cid, r);
    }
    for (const account of engine.listAccounts()) {
      const total = { objects: 0, bytes: 0, bytesActual: 0 };
      for (const c of engine.listContainers(account.id)) {
        const rec = ctx.store.containers.get(`${c.tenant}/${c.name}`);
        const recount = byCid.get(rec!.cid) ?? { objects: 0, bytes: 0, bytesActual: 0 };
        const u = c.usage;
        const usage = { objects: u.objects, bytes: u.bytes, bytesActual: u.bytesActual };
        if (JSON.stringify(usage) !== JSON.stringify(recount)) problems.push(`container ${c.name} usage ${JSON.stringify(usage)} != recount ${JSON.stringify(recount)}`);
        // The current records, delete markers aside, are what the native API counts (X-Container-Object-Count).
        if (u.current !== recount.objects) problems.push(`container ${c.name} counts ${u.current} current objects, recount ${recount.objects}`);
        total.objects += recount.objects;
        total.bytes += recount.bytes;
        total.bytesActual += recount.bytesActual;
      }
      const a = account.usage;
      const usage = { objects: a.objects, bytes: a.bytes, bytesActual: a.bytesActual };
      if (JSON.stringify(usage) !== JSON.stringify(total)) problems.push(`account ${account.id} usage ${JSON.stringify(usage)} != recount ${JSON.stringify(total)}`);
    }
    return { problems, blobFiles: files.size, objects };
  } finally {
    await engine.close();
  }
}
