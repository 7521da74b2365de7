// The browser build's side of uploads: each File is POSTed as the raw body to
// /_coffer/upload?id=<item id>; the server answers when that item settles. Progress comes back as
// transfer events, so nothing here reports it.
import type { RpcResult } from '../../src-shared/rpc/envelope';

const BASE = '/_coffer';
/**
 * Chromium opens at most 6 connections per host and the event stream holds one; three uploads
 * at once leave room for rpc calls and the listings the user keeps browsing.
 */
export const MAX_PARALLEL_UPLOADS = 3;

export function downloadUrl(account: string, container: string, name: string): string {
  return `${BASE}/download?${new URLSearchParams({ account, container, name }).toString()}`;
}

/** The address of a one-time zip download of a selection (objects and whole folders). */
export async function zipUrl(selection: { account: string; container: string; names: string[]; prefixes: string[]; title: string }): Promise<string> {
  const res = await fetch(`${BASE}/zip`, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(selection) });
  const body = (await res.json().catch(() => ({}))) as { id?: string; error?: string };
  if (!res.ok || !body.id) throw new Error(body.error ?? `The download could not be prepared (${res.status})`);
  return `${BASE}/zip/${encodeURIComponent(body.id)}`;
}

interface Held {
  file: File;
  /** Set while its request is waiting for a slot or running. */
  controller: AbortController | null;
}

/** A small queue of uploads: files held by item id so a retry can send them again. */
class BrowserUploads {
  private readonly held = new Map<string, Held>();
  private readonly waiting: string[] = [];
  private running = 0;

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
    let result: RpcResult | null = null;
    try {
      const res = await fetch(`${BASE}/upload?${new URLSearchParams({ id }).toString()}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: h.file,
        signal: controller.signal,
      });
      result = (await res.json().catch(() => null)) as RpcResult | null;
    } catch {
      // Aborted or the connection dropped: the server fails or cancels the item and says so in
      // its events; the file stays held for a retry.
    }
    if (h.controller === controller) h.controller = null;
    // Done: nothing will ask for these bytes again.
    if (result?.ok) this.held.delete(id);
  }
}

export const browserUpload = new BrowserUploads();
