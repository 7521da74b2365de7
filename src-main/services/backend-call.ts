import type { ObjectBackend } from '../backends/object-backend.js';
import type { ConnectionRegistry } from './connections.js';

/** Failures that say nothing about the data asked for: the connection itself is checked again. */
const RECHECK = new Set(['RemoteError', 'InternalError', 'AccessDenied', 'NoSuchAccount']);

export type BackendCall = <T>(account: string, fn: (b: ObjectBackend) => Promise<T>, proves?: boolean) => Promise<T>;

/**
 * Runs a call on an account's backend, recording whether the connection works: a success
 * proves it, unless the call needs no request the server authenticates (`proves: false`).
 */
export function backendCall(registry: ConnectionRegistry): BackendCall {
  return async (account, fn, proves = true) => {
    const backend = registry.backend(account);
    try {
      const value = await fn(backend);
      if (proves) registry.report(account, undefined);
      return value;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code === 'Unreachable' || code === 'AuthFailed') registry.report(account, err);
      else if (RECHECK.has(code)) void registry.check(account);
      throw err;
    }
  };
}
