// The server lifts the bound on the heap's growth (engine/heap-growth.ts) while a large body is
// in flight either way, and only then: an upload being received, a download being sent, and both
// given up by their clients half-way; after each, once quiet, the bound is back. Small requests
// never lift it. (What the bound is for is measured by `npm run bench`, section transfers.)
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_BODY_BYTES, heapGrowthBounded } from '../../src-main/engine/index.js';
import { ALICE, raw, signRequest, startWithBucket, type S3TestServer } from './server.js';

const QUIET_MS = 1000;
let s: S3TestServer;
let c: S3Client;
let b: string;
const large = randomBytes(8 * 1024 * 1024);
const other = randomBytes(large.length);

beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('heap'));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'large', Body: large }));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'small', Body: 'x'.repeat(1000) }));
});
afterAll(async () => {
  await s?.close();
});

const until = async (check: () => boolean, ms = QUIET_MS * 3) => {
  for (const end = Date.now() + ms; !check() && Date.now() < end; ) await sleep(20);
  return check();
};

/** Opens a signed request and hands back the response once its head is in (the body unread). */
async function open(method: string, key: string, body?: { length: number; first: Buffer }) {
  const { headers } = await signRequest(s, method, `/${b}/${key}`, { as: ALICE, payloadHash: 'UNSIGNED-PAYLOAD', headers: body ? { 'content-length': String(body.length) } : {} });
  const req = request({ host: '127.0.0.1', port: s.port, method, path: `/${b}/${key}`, headers, agent: false });
  req.on('error', () => undefined);
  if (body) req.write(body.first);
  else req.end();
  return req;
}

describe('the server and the heap growth bound', () => {
  it('keeps it through small uploads and downloads', async () => {
    await until(heapGrowthBounded);
    expect(heapGrowthBounded()).toBe(true);
    const seen: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const req = await open('GET', 'small');
      await new Promise<void>((done) => req.on('response', (res) => res.on('data', () => seen.push(heapGrowthBounded())).on('end', done)));
    }
    const small = Buffer.alloc(BULK_BODY_BYTES - 1, 7);
    const put = await open('PUT', 'small2', { length: small.length, first: small.subarray(0, 1000) });
    await sleep(100);
    seen.push(heapGrowthBounded());
    const status = await new Promise<number>((done) => {
      put.on('response', (res) => done(res.resume().statusCode!));
      put.end(small.subarray(1000));
    });
    expect(status).toBe(200);
    expect(seen.every(Boolean)).toBe(true);
  });

  it('lifts it while a large download is being sent, also one its client gives up half-way', async () => {
    await until(heapGrowthBounded);
    const req = await open('GET', 'large');
    const res = await new Promise<import('node:http').IncomingMessage>((done) => req.on('response', done));
    res.pause();
    expect(heapGrowthBounded()).toBe(false);
    // The client reads a little, then hangs up.
    res.read();
    req.destroy();
    expect(await until(heapGrowthBounded)).toBe(true);
  });

  it('lifts it while a large upload is being received, also one cut short, and the object stays as it was', async () => {
    await until(heapGrowthBounded);
    const req = await open('PUT', 'large', { length: large.length, first: other.subarray(0, 64 * 1024) });
    expect(await until(() => !heapGrowthBounded())).toBe(true);
    req.destroy();
    expect(await until(heapGrowthBounded)).toBe(true);
    const kept = await raw(s, 'GET', `/${b}/large`, { as: ALICE });
    expect(kept.body.equals(large)).toBe(true);

    // A whole one: lifted while received, back after.
    const whole = await open('PUT', 'large', { length: other.length, first: other.subarray(0, other.length / 2) });
    expect(await until(() => !heapGrowthBounded())).toBe(true);
    const status = await new Promise<number>((done) => {
      whole.on('response', (res) => done(res.resume().statusCode!));
      whole.end(other.subarray(other.length / 2));
    });
    expect(status).toBe(200);
    expect(await until(heapGrowthBounded)).toBe(true);
    expect((await raw(s, 'GET', `/${b}/large`, { as: ALICE })).body.equals(other)).toBe(true);
  });
});
