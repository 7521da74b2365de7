import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowseService } from '../../src-shared/contract/browse.js';
import type { EventMap } from '../../src-shared/contract/events.js';
import { CofferError, isCofferError } from '../../src-shared/errors.js';
import type { ObjectBackend } from '../backends/object-backend.js';
import { backendCall } from './backend-call.js';
import { deleteEntries, namesUnder, paste, type BulkContext, type Ref } from './browse-bulk.js';
import { countUnder } from './objects-under.js';
import { isTransient } from './transfers/job.js';
import type { ConnectionRegistry } from './connections.js';

/** The source's failure during a cross-account copy, kept apart from the destination's own. */
class SourceFailed extends Error {
  constructor(cause: Error) {
    super('the source failed', { cause });
  }
}

/**
 * A copy across accounts streams the source's body into the upload, so no request of it can be
 * sent again by itself: a dropped connection or a busy server costs the whole object, tried again
 * up to this many times in all, soon (a paste is waited on).
 */
const CROSS_COPY_ATTEMPTS = 3;
const crossCopyBackoffMs = (attempt: number) => 250 * 4 ** (attempt - 1);

type Emit = <E extends 'objects.changed' | 'operation.progress'>(event: E, payload: EventMap[E]) => void;

export function createBrowseService(registry: ConnectionRegistry, emit: Emit): BrowseService {
  const on = backendCall(registry);
  const changed = (account: string, container: string, names: string[]) => emit('objects.changed', { account, container, names });

  async function copyOne(from: Ref, to: Ref) {
    if (from.account === to.account) return on(to.account, (b) => b.copy(from, to));
    for (let attempt = 1; ; attempt++) {
      try {
        return await copyAcross(from, to);
      } catch (err) {
        // Nothing was stored: the copy starts again from the source's first byte, as a transfer would.
        if (attempt >= CROSS_COPY_ATTEMPTS || !isTransient(err)) throw err;
        await sleep(crossCopyBackoffMs(attempt));
      }
    }
  }

  async function copyAcross(from: Ref, to: Ref) {
    const source = await on(from.account, (b) => b.download(from.container, from.name));
    // The body streams from one server into the other: when the source's side fails mid-way the
    // upload fails too (nothing is stored), but with the source's socket error, which would read
    // as the destination's ("aborted") and count against the destination's connection.
    let sourceFailed: Error | undefined;
    source.body.once('error', (err) => (sourceFailed = err));
    const copy = (b: ObjectBackend) =>
      b
        .upload(to.container, to.name, { stream: source.body, size: source.details.size }, {
          contentType: source.details.contentType,
          meta: source.details.meta,
          headers: source.details.headers,
        })
        .catch((err: unknown) => {
          throw sourceFailed ? new SourceFailed(sourceFailed) : err;
        });
    try {
      return await on(to.account, copy);
    } catch (err) {
      if (!(err instanceof SourceFailed)) throw err;
      const cause = err.cause as Error;
      if (isCofferError(cause) && cause.code !== 'Unreachable') throw cause;
      throw new CofferError('Unreachable', `${from.name}: the connection to its account dropped during the copy, nothing was stored (${cause.message})`);
    }
  }

  const bulk: BulkContext = {
    backend: (account) => registry.backend(account),
    on,
    copyOne,
    changed,
    progress: (p) => emit('operation.progress', p),
  };

  const service: BrowseService = {
    // Both answer without asking the server (an S3 link is signed here): they prove nothing.
    capabilities: (a) => on(a.account, async (b) => b.capabilities(), false),
    listContainers: (a) => on(a.account, (b) => b.listContainers()),
    createContainer: (a) => on(a.account, (b) => b.createContainer(a.container, a.options ?? {})),
    deleteContainer: (a) => on(a.account, (b) => b.deleteContainer(a.container)),
    listFolder: (a) =>
      on(a.account, async (b) => {
        // A page no larger than the backend serves well: the caller follows nextMarker anyway.
        const pageSize = Math.min(a.pageSize ?? 1000, b.listPageLimit);
        const opts = { prefix: a.prefix ?? '', delimiter: a.delimiter ?? '/', pageSize, versions: a.versions ?? false, ...(a.marker ? { marker: a.marker } : {}) };
        for await (const page of b.listFolder(a.container, opts)) {
          return page;
        }
        return { entries: [], nextMarker: null };
      }),
    head: (a) => on(a.account, (b) => b.head(a.container, a.name, a.versionId ? { versionId: a.versionId } : {})),
    setMetadata: async (a) => {
      const details = await on(a.account, (b) => b.setMetadata(a.container, a.name, { contentType: a.contentType, meta: a.meta, headers: a.headers }));
      changed(a.account, a.container, [a.name]);
      return details;
    },
    createFolder: async (a) => {
      const prefix = a.prefix.endsWith('/') ? a.prefix : `${a.prefix}/`;
      await on(a.account, (b) => b.createFolder(a.container, prefix));
      changed(a.account, a.container, [prefix]);
    },
    delete: (a) => deleteEntries(bulk, { ...a, names: a.names ?? [], prefixes: a.prefixes ?? [] }),
    paste: (a) =>
      paste(bulk, {
        from: { ...a.from, names: a.from.names ?? [], prefixes: a.from.prefixes ?? [] },
        to: { ...a.to, prefix: a.to.prefix ?? '' },
        mode: a.mode ?? 'copy',
        conflicts: a.conflicts ?? 'ask',
        operationId: a.operationId,
      }),
    copy: async (a) => {
      const details = await copyOne(a.from, a.to);
      changed(a.to.account, a.to.container, [a.to.name]);
      return details;
    },
    move: async (a) => {
      if (a.from.account === a.to.account && a.from.container === a.to.container && a.from.name === a.to.name) return;
      if (!a.from.name.endsWith('/')) {
        await copyOne(a.from, a.to);
        await on(a.from.account, (b) => b.delete(a.from.container, a.from.name));
      } else {
        if (!a.to.name.endsWith('/')) throw new CofferError('InvalidArgument', 'A folder moves to a name ending in /');
        const source = registry.backend(a.from.account);
        for await (const names of namesUnder(source, a.from.container, a.from.name)) {
          for (const name of names) await copyOne({ ...a.from, name }, { ...a.to, name: a.to.name + name.slice(a.from.name.length) });
          await on(a.from.account, (b) => b.deleteMany(a.from.container, names));
        }
      }
      changed(a.from.account, a.from.container, [a.from.name]);
      changed(a.to.account, a.to.container, [a.to.name]);
    },
    setPublic: (a) => on(a.account, (b) => b.setPublic(a.container, a.name, a.on)),
    publicUrl: (a) => on(a.account, async (b) => ({ url: await b.publicUrl(a.container) }), false),
    shareLink: (a) =>
      on(
        a.account,
        async (b) => ({
          url: await b.shareLink(a.container, a.name, a.expiresInSeconds),
          expiresAt: new Date(Date.now() + a.expiresInSeconds * 1000).toISOString(),
        }),
        false,
      ),
    listVersions: (a) => on(a.account, (b) => b.listVersions(a.container, a.name)),
    restoreVersion: async (a) => {
      const details = await on(a.account, (b) => b.restoreVersion(a.container, a.name, a.versionId));
      changed(a.account, a.container, [a.name]);
      return details;
    },
    deleteVersion: async (a) => {
      await on(a.account, (b) => b.delete(a.container, a.name, { versionId: a.versionId }));
      changed(a.account, a.container, [a.name]);
    },
    countUnder: (a) => on(a.account, (b) => countUnder(b, a.container, a.prefixes, a.limit ?? 100_000)),
  };
  return service;
}
