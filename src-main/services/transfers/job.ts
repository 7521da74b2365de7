import { randomBytes } from 'node:crypto';
import type { TransferItem } from '../../../src-shared/contract/transfers.js';
import { CofferError, isCofferError, type CofferErrorCode } from '../../../src-shared/errors.js';
import type { ObjectBackend } from '../../backends/object-backend.js';
import { flat } from './pending.js';
import type { JobSpec } from './persisted.js';

/** What one attempt of a job gets: its backend, its signal, progress, and the resume token slot. */
export interface RunContext {
  backend: ObjectBackend;
  signal: AbortSignal;
  progress: (bytes: number) => void;
  /** Total size, once the runner learns it (a download's). */
  setSize: (bytes: number) => void;
  resumeToken: string | null;
  saveResumeToken: (token: string | null) => void;
}

export type Runner = (job: Job, ctx: RunContext) => Promise<{ verified: boolean }>;

export interface Job {
  item: TransferItem;
  spec: JobSpec;
  resumeToken: string | null;
  controller: AbortController | undefined;
  retryTimer: NodeJS.Timeout | undefined;
  /** A browser upload's bytes, once its request arrived. */
  stream: import('node:stream').Readable | undefined;
  /** Who waits for the job to settle (made on first use: most jobs have nobody). */
  waiters: ((item: TransferItem) => void)[] | undefined;
  /** The code of the last attempt's failure (the item keeps its message), so a browser upload's request can answer with it. */
  errorCode: CofferErrorCode | undefined;
}

/** A job's id: 32 hex digits, random (ids stay unique across restarts), one flat string. */
const newId = () => randomBytes(16).toString('hex');

/*
 * Every job and every item is built by one literal each, every field in it from the start:
 * objects of one shape share V8's hidden class and keep their fields in the object. Items spread
 * from their parts and grown field by field had a hidden class (and a property array) each, and
 * the spread made a dictionary of each on the way (about 3 KB of garbage): a queued file cost
 * 1,450 bytes of heap, now 590 (a heap snapshot of 10,000 queued files: 9,991 classes of one use).
 */
export function newJob(item: TransferItem, spec: JobSpec, resumeToken: string | null): Job {
  return { item, spec, resumeToken, controller: undefined, retryTimer: undefined, stream: undefined, waiters: undefined, errorCode: undefined };
}

export function copyItem(i: TransferItem): TransferItem {
  return {
    id: i.id,
    batchId: i.batchId,
    direction: i.direction,
    account: i.account,
    container: i.container,
    name: i.name,
    path: i.path,
    size: i.size,
    transferred: i.transferred,
    bytesPerSecond: i.bytesPerSecond,
    state: i.state,
    error: i.error,
    attempts: i.attempts,
    verified: i.verified,
    resumable: i.resumable,
  };
}


/** The item of a job just added: queued, nothing moved yet. */
export function queuedItem(item: Omit<TransferItem, 'id' | 'transferred' | 'state' | 'error' | 'attempts' | 'verified' | 'bytesPerSecond'>): TransferItem {
  return {
    id: newId(),
    batchId: item.batchId,
    direction: item.direction,
    account: item.account,
    container: item.container,
    name: flat(item.name),
    path: item.path === null ? null : flat(item.path),
    size: item.size,
    transferred: 0,
    bytesPerSecond: null,
    state: 'queued',
    error: null,
    attempts: 0,
    verified: false,
    resumable: item.resumable,
  };
}

/** A download's body that broke off with the socket's own error: the network's failure (transient), what is on disk still good. */
export const droppedConnection = (name: string, err: Error): CofferError => new CofferError('Unreachable', `${name}: the connection dropped during the download (${err.message})`);

/** Failures worth another attempt by themselves: the network, a server busy or shutting down. */
const TRANSIENT: ReadonlySet<CofferErrorCode> = new Set<CofferErrorCode>(['Unreachable', 'Closed', 'IncompleteBody', 'InternalError']);

/**
 * Whether an attempt's failure may pass by itself. A remote server's own 5xx, 429 or 408 reaches
 * here as RemoteError with its status (throttled, overloaded, restarting); another status of it is
 * the server's answer, and trying again would get the same one.
 */
export function isTransient(err: unknown): boolean {
  if (!isCofferError(err)) return false;
  if (TRANSIENT.has(err.code)) return true;
  if (err.code !== 'RemoteError') return false;
  const status = err.details.status;
  return typeof status !== 'number' || status >= 500 || status === 429 || status === 408;
}
