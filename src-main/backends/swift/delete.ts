import { CofferError } from '../../../src-shared/errors.js';
import type { DeleteManyResult } from '../../../src-shared/model/storage.js';
import type { SwiftClient } from './client.js';
import { statusError } from './errors.js';
import { encodeObjectPath, encodeSegment, isStaticLargeObject } from './headers.js';
import { drain } from './http.js';
import type { SwiftInfo } from './info.js';
import { inPool } from './segments.js';

/** Parallel requests for per-object work (HEADs, single deletes): enough to hide latency, polite to the server. */
const PARALLEL = 8;

interface BulkReport {
  'Number Deleted'?: number;
  'Number Not Found'?: number;
  'Response Status'?: string;
  'Response Body'?: string;
  Errors?: [string, string][];
}

/** `/c/o` as a bulk-delete line: URL-encoded, slashes of the name kept (§10.3). */
const bulkLine = (container: string, name: string) => `/${encodeSegment(container)}/${encodeObjectPath(name)}`;

/** `/container/name` (as manifests list segments, not encoded) split at the first slash after the container. */
function splitPath(path: string): { container: string; name: string } {
  const p = path.replace(/^\/+/, '');
  const slash = p.indexOf('/');
  return { container: p.slice(0, slash), name: p.slice(slash + 1) };
}

/** The per-path failures of a bulk report (`[["/c/o", "403 Forbidden"], …]`), and its overall failure if any. */
function reportFailures(report: BulkReport | undefined): { failed: Map<string, CofferError>; overall?: CofferError } {
  const failed = new Map<string, CofferError>();
  for (const [path, status] of report?.Errors ?? []) {
    const code = Number(/^\d{3}/.exec(status)?.[0] ?? 502);
    failed.set(decodeURIComponent(path).replace(/^\/+/, ''), statusError(code, status, 'object'));
  }
  const overall = /^(\d{3})/.exec(report?.['Response Status'] ?? '200')?.[1];
  const bad = Number(overall) >= 300 && failed.size === 0 && report?.['Response Body'] !== 'Invalid bulk delete.';
  return { failed, ...(bad ? { overall: new CofferError('RemoteError', `Bulk delete: ${report?.['Response Status']} ${report?.['Response Body'] ?? ''}`.trim()) } : {}) };
}

/** One bulk-delete request for up to the server's per-request maximum of paths. */
async function bulkDelete(client: SwiftClient, paths: { container: string; name: string }[]): Promise<Map<string, CofferError>> {
  const { data } = await client.json<BulkReport>({
    method: 'POST',
    query: { 'bulk-delete': '' },
    headers: { 'Content-Type': 'text/plain' },
    body: paths.map((p) => bulkLine(p.container, p.name)).join('\n') + '\n',
    idempotent: true,
    what: 'Bulk delete',
  });
  const { failed, overall } = reportFailures(data);
  if (overall) throw overall;
  return failed;
}

/** A DELETE where "already gone" counts as done. */
async function deleteOne(client: SwiftClient, container: string, name: string): Promise<void> {
  await client.call({ method: 'DELETE', container, object: name, ok: (s) => (s >= 200 && s < 300) || s === 404 });
}

/** Deletes an SLO manifest and its segments in one request (`?multipart-manifest=delete`, §6.5). */
export async function deleteSlo(client: SwiftClient, container: string, name: string): Promise<void> {
  const { data } = await client.json<BulkReport>({
    method: 'DELETE',
    container,
    object: name,
    query: { 'multipart-manifest': 'delete' },
    what: `Deleting ${container}/${name}`,
  });
  const { failed, overall } = reportFailures(data);
  const first = [...failed.values()].find((e) => e.code !== 'NoSuchKey');
  if (first) throw new CofferError(first.code, `Deleting ${container}/${name}: ${first.message}`);
  if (overall) throw overall;
}

/**
 * Deletes an object; an SLO goes with its segments (a HEAD tells which it is). An object that
 * is not there counts as deleted (as on S3, and for the other backends); a missing container
 * is still an error.
 */
export async function deleteObject(client: SwiftClient, container: string, name: string): Promise<void> {
  const what = `Deleting ${container}/${name}`;
  try {
    const head = await client.call({ method: 'HEAD', container, object: name, what });
    if (isStaticLargeObject(head.headers)) await deleteSlo(client, container, name);
    else await client.call({ method: 'DELETE', container, object: name, what });
  } catch (err) {
    if (!(err instanceof CofferError && err.code === 'NoSuchKey')) throw err;
  }
}

/** Removes segment objects given as `/container/name` paths (old segments of a replaced SLO). */
export async function deleteSegments(client: SwiftClient, paths: string[], info?: SwiftInfo): Promise<void> {
  const targets = paths.map(splitPath).filter((t) => t.container && t.name);
  if (info?.bulk_delete) await bulkDelete(client, targets);
  else await inPool(targets, PARALLEL, undefined, (t) => deleteOne(client, t.container, t.name));
}

/**
 * Deletes many objects of one container. A HEAD of each finds the SLOs (deleted with their
 * segments); the rest go by bulk delete when the server has it (in chunks of its per-request
 * maximum), else one by one. Objects already gone count as deleted, as S3's DeleteObjects does.
 */
export async function deleteMany(client: SwiftClient, info: SwiftInfo | undefined, container: string, names: string[]): Promise<DeleteManyResult> {
  const result: DeleteManyResult = { deleted: [], errors: [] };
  const plain: string[] = [];
  const fail = (name: string, err: unknown) => {
    const e = err instanceof CofferError ? err : new CofferError('RemoteError', String(err));
    result.errors.push({ name, code: e.code, message: e.message });
  };
  await inPool([...new Set(names)], PARALLEL, undefined, async (name) => {
    try {
      const head = await client.request({ method: 'HEAD', container, object: name, ok: (s) => s < 300 || s === 404 });
      await drain(head.body);
      if (head.status === 404) result.deleted.push(name);
      else if (isStaticLargeObject(head.headers)) {
        await deleteSlo(client, container, name);
        result.deleted.push(name);
      } else plain.push(name);
    } catch (err) {
      fail(name, err);
    }
  });
  if (info?.bulk_delete) {
    const chunk = Math.max(1, Math.min(info.bulk_delete.max_deletes_per_request ?? 1000, 10_000));
    for (let i = 0; i < plain.length; i += chunk) {
      const part = plain.slice(i, i + chunk);
      try {
        const failed = await bulkDelete(client, part.map((name) => ({ container, name })));
        for (const name of part) {
          const err = failed.get(`${container}/${name}`);
          if (err) fail(name, err);
          else result.deleted.push(name);
        }
      } catch (err) {
        for (const name of part) fail(name, err);
      }
    }
  } else {
    await inPool(plain, PARALLEL, undefined, async (name) => {
      try {
        await deleteOne(client, container, name);
        result.deleted.push(name);
      } catch (err) {
        fail(name, err);
      }
    });
  }
  return result;
}
