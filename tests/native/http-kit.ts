/**
 * What the raw HTTP test files of the native API share: the patterns every response is checked
 * against, and helpers bound to the file's own test server.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, expect } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { ACCOUNT, call, startTestServer, tempDir, type Reply, type TestServer } from './server.js';

export const md5 = (b: string | Buffer) => createHash('md5').update(b).digest('hex');
export const ref = (container: string) => Engine.ref(ACCOUNT, container);
export const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
export const X_TIMESTAMP = /^\d{10}\.\d{5}$/;
export const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const TRANS_ID = /^tx[0-9a-f]{21}-[0-9a-f]{10}/;
export const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (_name, jpath) => ['container.object', 'container.subdir', 'account.container'].includes(String(jpath)),
});

/** Percent-encodes each path segment of an object name (keeps `/`). */
export function encodeName(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}

/** The headers every native response carries (seed 4.1, supplement §2.1). */
export function expectBaseHeaders(r: { headers: Headers }, what = ''): void {
  const id = r.headers.get('x-trans-id');
  expect(id, `X-Trans-Id ${what}`).toMatch(TRANS_ID);
  expect(r.headers.get('x-openstack-request-id'), `X-Openstack-Request-Id ${what}`).toBe(id);
  expect(r.headers.get('date'), `Date ${what}`).toMatch(HTTP_DATE);
  expect(r.headers.get('content-type'), `Content-Type ${what}`).toBeTruthy();
}

/**
 * Starts the test file's own server before its tests (handing it to `use`) and closes it after
 * them; returns helpers that talk to it.
 */
/** A server and a scratch folder for a file's tests: made before them, closed and removed after. */
export function useServerWithScratch(label: string, use: (server: TestServer, scratch: string) => void): void {
  let server: TestServer | undefined;
  let scratch: string | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    scratch = tempDir(label);
    use(server, scratch);
  });
  afterAll(async () => {
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
}

export function useNativeServer(use: (server: TestServer) => void) {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    use(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  let seq = 0;
  return {
    /** A fresh container name (the tests of a file share one server). */
    fresh: (label: string) => `${label}-${++seq}`,
    async mkContainer(name: string, headers: Record<string, string> = {}): Promise<void> {
      const r = await call(server!, 'PUT', `/${name}`, { headers });
      expect(r.status).toBe(201);
    },
    async put(container: string, name: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
      const r = await call(server!, 'PUT', `/${container}/${encodeName(name)}`, { body, headers });
      expect(r.status, `PUT ${container}/${name}: ${r.text}`).toBe(201);
      return r;
    },
  };
}
