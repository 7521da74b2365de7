// Helpers of the backend tests: bytes to move, streams that produce them, anonymous HTTP reads.
import { createHash, randomBytes } from 'node:crypto';
import { lookup as dnsLookup, type LookupOptions } from 'node:dns';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { expect } from 'vitest';
import { isCofferError, type CofferErrorCode } from '../../src-shared/errors.js';

export const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** Node's resolver does not map `*.localhost` to loopback here; this agent does (as browsers do). */
function loopbackLookup(host: string, opts: LookupOptions, cb: (...args: never[]) => void): void {
  if (host === 'localhost' || host.endsWith('.localhost')) {
    const done = cb as unknown as (e: null, a: string | { address: string; family: number }[], f?: number) => void;
    return opts.all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4);
  }
  dnsLookup(host, opts, cb as never);
}
export function loopbackAgent(): Agent {
  return new Agent({ keepAlive: true, lookup: loopbackLookup } as never);
}

/** A GET with no credentials at all (what a browser does with a shared or public link). */
export function anonymousGet(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: new Agent({ lookup: loopbackLookup } as never) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `data` in small chunks, with no size known up front (like a pipe). */
export function chunkedStream(data: Buffer, chunk = 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += chunk) yield data.subarray(i, i + chunk);
    })(),
  );
}

/** A stream that trickles `chunk`-sized pieces with a pause between them, for cancellation. */
export function slowStream(total: number, chunk: number, pauseMs: number): Readable {
  return Readable.from(
    (async function* () {
      for (let sent = 0; sent < total; sent += chunk) {
        yield randomBytes(Math.min(chunk, total - sent));
        await sleep(pauseMs);
      }
    })(),
  );
}

/**
 * `total` bytes generated on the fly in 64 KiB chunks (as a file stream reads), never held
 * whole: a random 1 MiB block, each chunk stamped with its index so parts differ. `onDigest`
 * receives the SHA-256 of everything sent when the stream ends.
 */
export function generatedStream(total: number, onDigest?: (hex: string) => void): Readable {
  const block = randomBytes(1024 * 1024);
  const chunk = 64 * 1024;
  const hash = createHash('sha256');
  return Readable.from(
    (function* () {
      for (let sent = 0, i = 0; sent < total; sent += chunk, i++) {
        const at = (i * chunk) % block.length;
        const piece = Buffer.from(block.subarray(at, at + Math.min(chunk, total - sent)));
        piece.writeUInt32BE(i, 0);
        hash.update(piece);
        yield piece;
      }
      onDigest?.(hash.digest('hex'));
    })(),
  );
}

export function tempFile(data: Buffer): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-backend-'));
  const path = join(dir, 'upload.bin');
  writeFileSync(path, data);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Awaits a promise that must fail with a CofferError of this code; returns the error. */
export async function expectCode(p: Promise<unknown>, code: CofferErrorCode) {
  try {
    await p;
  } catch (err) {
    if (!isCofferError(err)) throw err;
    expect(err.code, err.message).toBe(code);
    return err;
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}

let counter = 0;
/** A fresh container name, valid on both APIs (tests share one server per file). */
export function containerName(label = 'c'): string {
  return `${label}-${process.pid}-${++counter}`.toLowerCase();
}

/** Percent-encodes a path segment-wise, `/` kept (as clients put names in URLs). */
export const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** Where a large object's segments go: a container (made if missing) and the prefix of their names, each `<prefix><index, 8 digits>`. */
export interface SegmentPlace {
  container: string;
  prefix: string;
}

/** PUTs each segment as an object of its own (at `at`, or `<name>.segments/<index>` beside it); resolves with where each went. */
async function putSegments(storageUrl: string, token: string, container: string, name: string, segments: Buffer[], at?: SegmentPlace) {
  const segContainer = at?.container ?? container;
  if (at) await fetch(`${storageUrl}/${encodeURIComponent(segContainer)}`, { method: 'PUT', headers: { 'X-Auth-Token': token } });
  const placed = [];
  for (const [i, seg] of segments.entries()) {
    const path = at ? `${at.prefix}${String(i).padStart(8, '0')}` : `${name}.segments/${String(i).padStart(4, '0')}`;
    const res = await fetch(`${storageUrl}/${encodeURIComponent(segContainer)}/${encodePath(path)}`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: new Uint8Array(seg) });
    if (res.status !== 201) throw new Error(`segment ${i}: HTTP ${res.status}`);
    placed.push({ container: segContainer, name: path });
  }
  return placed;
}

/**
 * Makes a Static Large Object over Swift's API by hand: each segment an object of its own (in
 * the same container, or where `at` says), then the manifest (`?multipart-manifest=put`), as the `swift` CLI does.
 */
export function sloMaker(storageUrl: string, token: string) {
  return async (container: string, name: string, segments: Buffer[], at?: SegmentPlace): Promise<{ container: string; name: string }[]> => {
    const placed = await putSegments(storageUrl, token, container, name, segments, at);
    const manifest = placed.map((p, i) => ({ path: `/${p.container}/${p.name}`, etag: md5(segments[i]!), size_bytes: segments[i]!.length }));
    const res = await fetch(`${storageUrl}/${encodeURIComponent(container)}/${encodeURIComponent(name)}?multipart-manifest=put`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: JSON.stringify(manifest) });
    if (res.status !== 201) throw new Error(`manifest: HTTP ${res.status} ${await res.text()}`);
    return placed;
  };
}

/** Makes a Dynamic Large Object over Swift's API: the segments at `at`, then a manifest naming them (X-Object-Manifest), as `swift upload -S` without `--use-slo` does. */
export function dloMaker(storageUrl: string, token: string) {
  return async (container: string, name: string, segments: Buffer[], at: SegmentPlace): Promise<{ container: string; name: string }[]> => {
    const placed = await putSegments(storageUrl, token, container, name, segments, at);
    const manifest = `${encodeURIComponent(at.container)}/${encodePath(at.prefix)}`;
    const res = await fetch(`${storageUrl}/${encodeURIComponent(container)}/${encodeURIComponent(name)}`, { method: 'PUT', headers: { 'X-Auth-Token': token, 'X-Object-Manifest': manifest }, body: '' });
    if (res.status !== 201) throw new Error(`DLO manifest: HTTP ${res.status} ${await res.text()}`);
    return placed;
  };
}

/** `key` in `bucket` made by a multipart upload of these parts, in order, through `s3`. */
export async function uploadInParts(s3: S3Client, bucket: string, key: string, parts: Buffer[]): Promise<void> {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const done = [];
  for (const [i, Body] of parts.entries()) done.push({ PartNumber: i + 1, ETag: (await s3.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: i + 1, Body }))).ETag! });
  await s3.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }));
}

/** A CRC32 as S3 shows it (x-amz-checksum-crc32): 4 big-endian bytes in base64. */
export function crc32Of(data: Uint8Array): string {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(data) >>> 0);
  return out.toString('base64');
}
