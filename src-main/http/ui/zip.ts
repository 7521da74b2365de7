import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import type { Exchange } from '../common/exchange.js';

export interface ZipRequest {
  account: string;
  container: string;
  names: string[];
  prefixes: string[];
  /** The archive's file name, without `.zip`. */
  title: string;
}

/** What a zip download needs from the app: the entries of a selection, each opened when written. */
export type ZipSource = (r: ZipRequest) => AsyncIterable<{ path: string; size: number; lastModified: Date; open(): Promise<Readable> }>;

/**
 * Folder downloads in the browser build: the page posts its selection (which may be long) and
 * gets an id, then navigates to `/_coffer/zip/<id>` for a download the browser handles as any
 * other. An id is good for one download within a minute.
 */
export class ZipDownloads {
  private readonly pending = new Map<string, { request: ZipRequest; expires: number }>();

  prepare(request: ZipRequest): string {
    const now = Date.now();
    for (const [id, p] of this.pending) if (p.expires < now) this.pending.delete(id);
    const id = randomUUID();
    this.pending.set(id, { request, expires: now + 60_000 });
    return id;
  }

  take(id: string): ZipRequest | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p && p.expires >= Date.now() ? p.request : undefined;
  }
}

function attachmentZip(title: string): string {
  const name = `${title.replace(/[\\/]/g, '_') || 'download'}.zip`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Streams the archive: entries stored as they are (most objects worth downloading in bulk are
 * compressed already, and storing keeps the stream as fast as the reads), ZIP64 where sizes need
 * it, one object open at a time. A failure after the first byte cuts the connection, so the
 * browser reports the download failed instead of keeping a truncated archive as complete.
 */
export async function streamZip(x: Exchange, request: ZipRequest, source: ZipSource, headers: Record<string, string>): Promise<void> {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  const fail = (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err)));
  zip.on('error', fail);
  // The client went away: stop listing, and close the object being read (a remote connection).
  let current: Readable | undefined;
  out.once('close', () => current?.destroy());
  void (async () => {
    for await (const e of source(request)) {
      if (out.destroyed) return;
      zip.addReadStreamLazy(e.path, { size: e.size, mtime: e.lastModified, compress: false }, (cb) => {
        e.open().then(
          (body) => cb(null, (current = body)),
          (err: unknown) => cb(err instanceof Error ? err : new Error(String(err)), undefined as unknown as Readable),
        );
      });
    }
    zip.end();
  })().catch(fail);
  await x.stream(200, { ...headers, 'Content-Type': 'application/zip', 'Content-Disposition': attachmentZip(request.title) }, { body: out });
}
