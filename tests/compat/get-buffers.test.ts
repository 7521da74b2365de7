// Large GETs reuse the buffers the server reads stored bytes into (engine/blobs/buffers.ts),
// each given back once its response has written it. What a client sees must not change: many
// GETs at once of several large objects, whole and in ranges, some read late (the server's writes
// wait on the socket), some abandoned mid-way, each body byte for byte; and the same again afterwards.
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll, startWithBucket, type S3TestServer } from './server.js';

const MiB = 1024 * 1024;
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

let s: S3TestServer;
let c: S3Client;
let b: string;
/** Six objects of 8 MiB and more (past what the sockets' kernel buffers hold), of other bytes and sizes (not multiples of a buffer). */
const objects = Array.from({ length: 6 }, (_, i) => randomBytes(8 * MiB + 7 + i * 100_003));

beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('bufs'));
  await Promise.all(objects.map((Body, i) => c.send(new PutObjectCommand({ Bucket: b, Key: `o${i}`, Body }))));
});
afterAll(async () => {
  await s?.close();
});

async function get(i: number, range?: [number, number]): Promise<Readable> {
  const out = await c.send(new GetObjectCommand({ Bucket: b, Key: `o${i}`, ...(range ? { Range: `bytes=${range[0]}-${range[1]}` } : {}) }));
  return out.Body as Readable;
}

/**
 * Reads a body only after a while: meanwhile the socket's buffers fill, and the server's last
 * writes wait with their chunks (buffers that must not be lent again before they are sent).
 */
async function readLate(body: Readable): Promise<Buffer> {
  body.pause();
  await sleep(300);
  return readAll(body);
}

describe('large GETs with reused buffers', () => {
  it('sends every body byte for byte with 24 GETs at once, whole, in ranges, read late and abandoned', async () => {
    const checks = Array.from({ length: 24 }, async (_, n) => {
      const i = n % objects.length;
      const data = objects[i]!;
      switch (n % 4) {
        case 0:
          return expect(md5(await readAll(await get(i)))).toBe(md5(data));
        case 1: {
          const [from, to] = [MiB - 5, 2 * MiB + 12_345];
          return expect(md5(await readAll(await get(i, [from, to])))).toBe(md5(data.subarray(from, to + 1)));
        }
        case 2:
          return expect(md5(await readLate(await get(i)))).toBe(md5(data));
        default: {
          // Abandoned after its first chunk: the rest of its buffers stay with a dead response.
          const body = await get(i);
          for await (const _ of body) break;
          body.destroy();
          return undefined;
        }
      }
    });
    await Promise.all(checks);
    // And afterwards, every object whole again, all at once.
    const again = await Promise.all(objects.map(async (_, i) => md5(await readAll(await get(i)))));
    expect(again).toEqual(objects.map(md5));
  });
});
