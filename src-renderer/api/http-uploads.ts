// The browser build's side of uploads: each File is POSTed as the raw body to
// /_coffer/upload?id=<item id>; the server answers when that item settles. Progress comes back as
// transfer events, so nothing here reports it.
import { CofferError, type CofferErrorData } from '../../src-shared/errors';
import type { RpcResult } from '../../src-shared/rpc/envelope';
import { readAnswer, unreachable, type WebApis } from './transport';

const BASE = '/_coffer';
/**
 * Chromium opens at most 6 connections per host and the event stream holds one; three uploads
 * at once leave room for rpc calls and the listings the user keeps browsing.
 */
export const MAX_PARALLEL_UPLOADS = 3;

export function downloadUrl(account: string, container: string, name: string): string {
  return `${BASE}/download?${new URLSearchParams({ account, container, name }).toString()}`;
}

/** The address of a one-time zip download of a selection (objects and whole folders); throws the server's error (a CofferError). */
export async function zipUrl(selection: { account: string; container: string; names: string[]; prefixes: string[]; title: string }, web: Pick<WebApis, 'fetch'> = globalThis): Promise<string> {
  let answer: RpcResult;
  try {
    const res = await web.fetch(`${BASE}/zip`, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(selection) });
    answer = await readAnswer(res);
  } catch (err) {
    answer = unreachable(err);
  }
  if (!answer.ok) throw new CofferError(answer.error.code, answer.error.message);
  return `${BASE}/zip/${encodeURIComponent((answer.value as { id: string }).id)}`;
}

/**
 * Sends one file's bytes to its planned item (transfers.startUpload's id); the answer comes when
 * the item settles: the item, or the server's error (a container deleted since the plan is
 * NoSuchContainer, a refused session AuthFailed), or Unreachable when no answer came.
 */
export async function sendUpload(id: string, body: Blob, signal?: AbortSignal, web: Pick<WebApis, 'fetch'> = globalThis): Promise<RpcResult> {
  try {
    const res = await web.fetch(`${BASE}/upload?${new URLSearchParams({ id }).toString()}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/octet-stream' },
      body,
      ...(signal ? { signal } : {}),
    });
    return await readAnswer(res);
  } catch (err) {
    return unreachable(err);
  }
}

interface Held {
  file: File;
  /** Set while its request is waiting for a slot or running. */
  controller: AbortController | null;
}

/** Told when a send starts (null) and when the server refused one or never answered (its error). */
export type UploadAnswerListener = (id: string, error: CofferErrorData | null) => void;

/** A small queue of uploads: files held by item id so a retry can send them again. */
class BrowserUploads {
  private readonly held = new Map<string, Held>();
  private readonly waiting: string[] = [];
  private running = 0;
  private readonly listeners = new Set<UploadAnswerListener>();

  /** The item's own failures reach the page in its events; a refusal before it (an expired session, an item not waiting) only here. */
  onAnswer(listener: UploadAnswerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  send(id: string, file: File): void {
    this.held.set(id, { file, controller: new AbortController() });
    this.waiting.push(id);
    this.pump();
  }

  holds(id: string): boolean {
    return this.held.has(id);
  }

  /** Sends held files again to the same items (main has put them back in the queue). */
  resend(ids: string[]): void {
    for (const id of ids) {
      const h = this.held.get(id);
      if (!h || h.controller) continue;
      h.controller = new AbortController();
      this.waiting.push(id);
    }
    this.pump();
  }

  /** Stops holding an item's file and hands it back (to send it under a new item). */
  release(id: string): File | undefined {
    const h = this.held.get(id);
    if (h?.controller) return undefined;
    this.held.delete(id);
    return h?.file;
  }

  abort(ids?: string[]): void {
    for (const id of ids ?? [...this.held.keys()]) {
      const h = this.held.get(id);
      h?.controller?.abort();
      if (h) h.controller = null;
    }
  }

  private pump(): void {
    while (this.running < MAX_PARALLEL_UPLOADS && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const h = this.held.get(id);
      if (!h?.controller || h.controller.signal.aborted) continue;
      this.running++;
      void this.post(id, h).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async post(id: string, h: Held): Promise<void> {
    const controller = h.controller!;
    for (const listener of this.listeners) listener(id, null);
    const result = await sendUpload(id, h.file, controller.signal);
    if (h.controller === controller) h.controller = null;
    // Done: nothing will ask for these bytes again.
    if (result.ok) this.held.delete(id);
    // Paused or cancelled (here or in main: Aborted): the item's state says so. Otherwise the file
    // stays held for a retry and the page is told why (the server's own words, or that it was not reached).
    else if (!controller.signal.aborted && result.error.code !== 'Aborted') for (const listener of this.listeners) listener(id, result.error);
  }
}

export const browserUpload = new BrowserUploads();
