/**
 * The floor server of the HTTP benchmark: the least a store must do, on the same stack (node:http,
 * the same file system), and nothing more. PUT reads the body, MD5s it, writes it to a file and
 * fsyncs it before answering with the ETag; GET streams the file; HEAD stats it; DELETE unlinks
 * it. No auth, no index, no listing. A PUT of a path with one segment (a container) is a no-op.
 *
 * Run as its own process: `node --import tsx floor-server.ts DIR`; prints {"port":N} on stdout.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat, unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: floor-server.ts DIR');

/** One flat directory: the whole path, encoded, is the file name. */
const fileOf = (url: string) => join(dir, encodeURIComponent(decodeURIComponent(url.split('?')[0]!)));

async function put(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url!.split('/').filter(Boolean).length < 2) {
    req.resume();
    res.writeHead(200, { 'content-length': 0 }).end();
    return;
  }
  const fh = await open(fileOf(req.url!), 'w');
  const md5 = createHash('md5');
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      md5.update(chunk);
      let off = 0;
      while (off < chunk.length) off += (await fh.write(chunk, off, chunk.length - off)).bytesWritten;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  res.writeHead(200, { etag: `"${md5.digest('hex')}"`, 'content-length': 0 }).end();
}

async function get(req: IncomingMessage, res: ServerResponse, head: boolean): Promise<void> {
  const path = fileOf(req.url!);
  const st = await stat(path);
  res.writeHead(200, { 'content-length': st.size, 'content-type': 'application/octet-stream' });
  if (head) return void res.end();
  createReadStream(path, { highWaterMark: 256 * 1024 }).pipe(res);
}

// Module-level functions only: this file runs through tsx, whose transform names every function
// created at run time (a cost Coffer's compiled server does not pay either).
function done(res: ServerResponse, p: Promise<void>): void {
  p.catch((err: NodeJS.ErrnoException) => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(err.code === 'ENOENT' ? 404 : 500, { 'content-length': 0 }).end();
  });
}

async function del(req: IncomingMessage, res: ServerResponse): Promise<void> {
  await unlink(fileOf(req.url!));
  res.writeHead(204).end();
}

const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 0 }, (req, res) => {
  if (req.method === 'PUT') done(res, put(req, res));
  else if (req.method === 'GET' || req.method === 'HEAD') done(res, get(req, res, req.method === 'HEAD'));
  else if (req.method === 'DELETE') done(res, del(req, res));
  else res.writeHead(405, { 'content-length': 0 }).end();
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
