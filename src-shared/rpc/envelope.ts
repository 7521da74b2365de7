import type { CofferErrorData } from '../errors.js';

/** What crosses every transport: a result or an error as data (IPC keeps only an Error's message). */
export type RpcResult<T = unknown> = { ok: true; value: T } | { ok: false; error: CofferErrorData };

export interface RpcRequest {
  method: string;
  arg: unknown;
}

/** A way to reach the services: Electron IPC, HTTP, or in-process for tests. */
export interface Transport {
  call(method: string, arg: unknown): Promise<RpcResult>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}
