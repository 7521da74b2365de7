// The contract's fixtures on the reference servers (real Swift, real RGW): the remote backends as
// the app makes them, plus what the contract needs from outside them (versioning switched on,
// uploads left open, an address nothing answers on).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { RemoteS3Backend, type RemoteS3Config } from '../../src-main/backends/remote-compat.js';
import { RemoteNativeBackend, type RemoteNativeOptions } from '../../src-main/backends/remote-native.js';
import { freePort } from '../reference/processes.js';
import type { BackendFixture } from './contract.js';
import { dloMaker, encodePath, sloMaker } from './helpers.js';

/** A v1 sign-in straight against the server: the storage URL public links live under. */
export async function v1StorageUrl(authUrl: string, user: string, key: string): Promise<{ storageUrl: string; token: string }> {
  const res = await fetch(authUrl, { headers: { 'X-Auth-User': user, 'X-Auth-Key': key } });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`v1 sign-in as ${user} at ${authUrl}: ${res.status}`);
  return { storageUrl: res.headers.get('x-storage-url')!, token: res.headers.get('x-auth-token')! };
}

export async function swiftFixture(authUrl: string, user: string, key: string, extra: Partial<RemoteNativeOptions> = {}): Promise<BackendFixture> {
  const { storageUrl, token } = await v1StorageUrl(authUrl, user, key);
  const dead = await freePort();
  const made: RemoteNativeBackend[] = [];
  const make = (o: Partial<RemoteNativeOptions>) => {
    const b = new RemoteNativeBackend({ authUrl, auth: { type: 'v1', user, key }, backoffMs: 20, ...extra, ...o });
    made.push(b);
    return b;
  };
  const backend = make({});
  // capabilities() is exact once /info has been read, as the app's connect does.
  await backend.connect();
  return {
    backend,
    publicUrl: (c, name) => `${storageUrl}/${encodePath(c)}/${encodePath(name)}`,
    pendingUploads: async (c) => {
      const res = await fetch(`${storageUrl}/${encodePath(`${c}_segments`)}?format=json`, { headers: { 'X-Auth-Token': token } });
      return res.status === 404 ? 0 : ((await res.json()) as unknown[]).length;
    },
    withWrongCredentials: () => make({ auth: { type: 'v1', user, key: `${key}-wrong` } }),
    putSlo: sloMaker(storageUrl, token),
    putDlo: dloMaker(storageUrl, token),
    lacks: { publicObjects: 'Swift makes whole containers public, never one object' },
    unreachable: () => make({ authUrl: `http://127.0.0.1:${dead}/auth/v1.0`, attempts: 2 }),
    close: async () => {
      for (const b of made) b.close();
    },
  };
}

export async function s3Fixture(endpoint: string, accessKeyId: string, secretAccessKey: string): Promise<BackendFixture> {
  const dead = await freePort();
  const config: RemoteS3Config = { endpoint, region: 'us-east-1', accessKeyId, secretAccessKey, forcePathStyle: true };
  const direct = new S3Client({ endpoint, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey }, forcePathStyle: true });
  const made: RemoteS3Backend[] = [];
  const make = (o: Partial<RemoteS3Config>) => {
    const b = new RemoteS3Backend({ ...config, ...o });
    made.push(b);
    return b;
  };
  return {
    backend: make({}),
    publicUrl: (c, name) => `${endpoint}/${encodePath(c)}/${encodePath(name)}`,
    pendingUploads: async (c) => (await direct.send(new ListMultipartUploadsCommand({ Bucket: c }))).Uploads?.length ?? 0,
    s3: direct,
    withWrongCredentials: () => make({ secretAccessKey: `${secretAccessKey}-wrong` }),
    unreachable: () => make({ endpoint: `http://127.0.0.1:${dead}`, maxAttempts: 2 }),
    close: async () => {
      for (const b of made) b.close();
      direct.destroy();
    },
  };
}

/**
 * Why an account's figures did not move: the account's and the container's own HEADs (the
 * container server's count against the account server's, which the container updater feeds),
 * the object updates still waiting on disk, and the end of the updaters' and servers' logs.
 */
export async function swiftUsageDiagnosis(authUrl: string, u: { account: string; user: string; key: string }, container: string): Promise<string> {
  const { storageUrl, token } = await v1StorageUrl(authUrl, `${u.account}:${u.user}`, u.key);
  const figures = async (url: string) => {
    const r = await fetch(url, { method: 'HEAD', headers: { 'X-Auth-Token': token } });
    const shown: string[] = [];
    r.headers.forEach((v, k) => void (/bytes-used|object-count|container-count/.test(k) && shown.push(`${k}=${v}`)));
    return `${r.status} ${shown.join(' ')}`;
  };
  const dir = join(inject('referenceRunDir'), 'swift');
  const pending = (root: string): string[] => {
    try {
      return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) => p.includes('async_pending') && !p.endsWith('async_pending'));
    } catch {
      return [];
    }
  };
  const tail = (name: string) => {
    try {
      return `--- ${name}\n${readFileSync(join(dir, name), 'utf8').split('\n').slice(-12).join('\n')}`;
    } catch (err) {
      return `--- ${name}: ${(err as Error).message}`;
    }
  };
  return [
    `account: ${await figures(storageUrl)}`,
    `container: ${await figures(`${storageUrl}/${encodeURIComponent(container)}`)}`,
    `async pendings: ${pending(join(dir, 'devices')).length}`,
    ...['container-updater.log', 'object-updater.log', 'container.log', 'object.log', 'account.log'].map(tail),
  ].join('\n');
}

/** Runs Swift's container updater on one container now (tests/reference/swift-update-container.py). */
export async function swiftReportContainer(account: string, container: string): Promise<void> {
  const dir = join(inject('referenceRunDir'), 'swift');
  const script = fileURLToPath(new URL('../reference/swift-update-container.py', import.meta.url));
  await promisify(execFile)('/usr/bin/python3', [script, dir, join(dir, 'container-server.conf'), account, container], { timeout: 60_000 });
}
