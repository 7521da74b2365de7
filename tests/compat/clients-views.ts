// What the engine, the native API and an anonymous caller see of the clients' work.
import { expect } from 'vitest';
import { app, encodeKey, ref, url, type User } from './clients-kit.js';

export function bucketExists(bucket: string): boolean {
  try {
    app.engine.getContainer(ref(bucket));
    return true;
  } catch {
    return false;
  }
}

export function objectEtag(bucket: string, key: string): string | undefined {
  try {
    return app.engine.headObject(ref(bucket), key).etag;
  } catch {
    return undefined;
  }
}

/** Every object name in the bucket, through the engine. */
export function engineNames(bucket: string, prefix = ''): string[] {
  const names: string[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = app.engine.listObjects(ref(bucket), { limit: 1000, ...(prefix ? { prefix } : {}), ...(marker ? { marker } : {}) });
    for (const e of page.entries) if (e.kind === 'object') names.push(e.name);
    if (!page.truncated || !page.nextMarker) return names;
    marker = page.nextMarker;
  }
}

/** The native API's view: a raw GET of the container listing with the v1 token. */
export async function nativeNames(user: User, bucket: string, prefix = ''): Promise<string[]> {
  const res = await fetch(`${user.storageUrl}/${encodeURIComponent(bucket)}?format=json&prefix=${encodeURIComponent(prefix)}`, {
    headers: { 'X-Auth-Token': user.token },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  expect(res.status, `native listing of ${bucket}: ${text}`).toBe(200);
  return (JSON.parse(text) as { name: string }[]).map((o) => o.name);
}

export async function nativeHead(user: User, bucket: string, key: string): Promise<Response> {
  const res = await fetch(`${user.storageUrl}/${encodeURIComponent(bucket)}/${encodeKey(key)}`, {
    method: 'HEAD',
    headers: { 'X-Auth-Token': user.token },
    signal: AbortSignal.timeout(10_000),
  });
  return res;
}

/** An anonymous path-style S3 GET. */
export async function anonymousGet(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${url}/${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text() };
}
