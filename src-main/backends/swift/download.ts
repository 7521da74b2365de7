import { Transform, type Readable } from 'node:stream';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import type { DownloadOptions } from '../object-backend.js';
import type { SwiftClient } from './client.js';
import { networkError } from './errors.js';
import { detailsFromHeaders } from './headers.js';
import { Progress } from './progress.js';

/**
 * GET (with an inclusive Range) handed to the caller as a stream: nothing is buffered beyond
 * the stream's own high-water mark. Progress counts what the caller reads; a server failure or
 * the caller's cancel reaches the reader as a CofferError; closing the stream early closes the
 * connection (the rest of the body is not read for nothing).
 */
export async function downloadObject(client: SwiftClient, container: string, name: string, opts: DownloadOptions, progressIntervalMs: number): Promise<{ details: ObjectDetails; body: Readable }> {
  const range: Record<string, string> = opts.range ? { Range: `bytes=${opts.range.start}-${opts.range.end ?? ''}` } : {};
  const version = opts.versionId !== undefined ? { query: { 'version-id': opts.versionId } } : {};
  const reply = await client.request({ method: 'GET', container, object: name, headers: range, ...version, ...(opts.signal ? { signal: opts.signal } : {}) });
  const progress = new Progress(opts.onProgress, progressIntervalMs);
  const res = reply.body;
  const body = new Transform({
    transform(chunk: Buffer, _enc, done) {
      progress.add(chunk.length);
      done(null, chunk);
    },
    flush(done) {
      progress.flush();
      done();
    },
  });
  res.on('error', (err) => body.destroy(networkError(err, opts.signal)));
  res.on('aborted', () => body.destroy(networkError(Object.assign(new Error('The server closed the connection mid-download'), { code: 'ECONNRESET' }), opts.signal)));
  body.on('close', () => {
    if (!res.complete) res.destroy();
  });
  res.pipe(body);
  return { details: detailsFromHeaders(container, name, reply.headers), body };
}
