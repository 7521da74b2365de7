import type { EventMap } from '../../src-shared/contract/events.js';
import type { VersionsService } from '../../src-shared/contract/versions.js';
import type { ObjectDetails } from '../../src-shared/model/storage.js';
import { PROGRESS_INTERVAL_MS } from '../backends/transfer.js';
import type { BackendCall } from './backend-call.js';
import { planRestore, restoreToTime } from './restore-to-time.js';

type Emit = <E extends 'objects.changed' | 'operation.progress'>(event: E, payload: EventMap[E]) => void;

export function createVersionsService(on: BackendCall, emit: Emit): VersionsService {
  const changed = (account: string, container: string, names: string[]) => emit('objects.changed', { account, container, names });
  return {
    status: (a) => on(a.account, async (b) => ({ status: await b.versioning(a.container) })),
    set: (a) => on(a.account, async (b) => ({ status: await b.setVersioning(a.container, a.on) })),
    undelete: async (a) => {
      const restored: ObjectDetails[] = [];
      const errors: { name: string; code: string; message: string }[] = [];
      try {
        await on(a.account, async (b) => {
          for (const name of a.names) {
            try {
              restored.push(await b.undelete(a.container, name));
            } catch (err) {
              const e = err as { code?: string; message?: string };
              // A connection that fails fails them all: no point going through the rest.
              if (e.code === 'Unreachable' || e.code === 'AuthFailed') throw err;
              errors.push({ name, code: e.code ?? 'InternalError', message: e.message ?? String(err) });
            }
          }
        });
      } finally {
        changed(a.account, a.container, a.names);
      }
      return { restored, errors };
    },
    planRestore: (a) => on(a.account, (b) => planRestore(b, a.container, a.prefix ?? '', a.at, a.limit ?? 100_000)),
    restoreTo: async (a) => {
      let done = 0;
      let last = 0;
      const report = (finished: boolean) => {
        last = Date.now();
        if (a.operationId) emit('operation.progress', { id: a.operationId, kind: 'restore', done, total: finished ? done : null, finished });
      };
      report(false);
      try {
        return await on(a.account, (b) =>
          restoreToTime(b, a.container, a.prefix ?? '', a.at, (n) => {
            done += n;
            if (Date.now() - last >= PROGRESS_INTERVAL_MS) report(false);
          }),
        );
      } finally {
        report(true);
        changed(a.account, a.container, [a.prefix ?? '']);
      }
    },
  };
}
