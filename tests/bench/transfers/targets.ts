/**
 * The servers every client is measured against, one at a time: Coffer's own store as
 * `coffer serve` over its S3 API, and, where installed, Ceph RGW (S3) and OpenStack Swift (its
 * native API; the AWS CLI goes through Swift's s3api). Each target says how every client reaches
 * it, and has an admin backend (Coffer's own, in this process) to make and empty buckets.
 */
import { join } from 'node:path';
import { makeRemoteBackend } from '../../../src-main/backends/factory.js';
import type { ObjectBackend } from '../../../src-main/backends/object-backend.js';
import type { ConnectionConfig } from '../../../src-shared/model/connections.js';
import { groupCpuMicros } from '../proc-cpu.js';
import { rgwAdmin } from '../../reference/rgw.js';
import { startReference, unavailableReason } from '../../reference/servers.js';
import { COFFER_USER, fillCofferStore } from '../http/coffer-setup.js';
import { startCoffer } from '../http/servers.js';

export interface Target {
  name: 'coffer' | 'rgw' | 'swift';
  /** Coffer's connection to it, as a user would add it. */
  connection: ConnectionConfig;
  /** rclone's on-the-fly remote (`:s3:` or `:swift:`) and the flags that configure it. */
  rclone: { remote: string; flags: string[] };
  /** Where the AWS CLI sends S3 requests, and its keys. */
  s3: { endpoint: string; accessKey: string; secretKey: string };
  admin: ObjectBackend;
  /** CPU time the server has used so far, µs: coffer serve's process, or every process of a reference server. */
  serverCpuMicros(): number;
  /** Whether the server keeps objects as files on this machine's disk (RGW here keeps them in memory): deleting many slows the next file creations (transfers-bench.ts, manyFiles). */
  storesOnThisDisk: boolean;
  /** After objects were deleted: lets the server free their space now (RGW's garbage collection). */
  reclaim(): void;
  stop(): Promise<void>;
}

const s3Connection = (endpoint: string, accessKeyId: string, secretAccessKey: string): ConnectionConfig => ({
  kind: 's3',
  endpoint,
  region: 'us-east-1',
  accessKeyId,
  secretAccessKey,
  forcePathStyle: true,
});

const rcloneS3 = (endpoint: string, accessKey: string, secretKey: string) => ({
  remote: ':s3:',
  flags: ['--s3-provider', 'Other', '--s3-endpoint', endpoint, '--s3-env-auth=false', '--s3-access-key-id', accessKey, '--s3-secret-access-key', secretKey, '--s3-region', 'us-east-1'],
});

function target(t: Omit<Target, 'admin' | 'reclaim'> & { reclaim?: () => void }): Target {
  const admin = makeRemoteBackend(t.connection);
  return {
    reclaim: () => undefined,
    ...t,
    admin,
    stop: async () => {
      await admin.close?.();
      await t.stop();
    },
  };
}

export async function startCofferTarget(root: string, log: (m: string) => void): Promise<Target> {
  const dataDir = join(root, 'coffer-store');
  await fillCofferStore(dataDir, 0, log);
  const server = await startCoffer(dataDir);
  const endpoint = `http://127.0.0.1:${server.port}`;
  return target({
    name: 'coffer',
    storesOnThisDisk: true,
    connection: s3Connection(endpoint, COFFER_USER.accessKey, COFFER_USER.secretKey),
    rclone: rcloneS3(endpoint, COFFER_USER.accessKey, COFFER_USER.secretKey),
    s3: { endpoint, accessKey: COFFER_USER.accessKey, secretKey: COFFER_USER.secretKey },
    serverCpuMicros: () => server.cpuMicros(),
    stop: () => server.stop(),
  });
}

/** RGW's memstore OSD keeps objects in memory: room for the large file of each client in turn. */
export async function startRgwTarget(memstoreBytes: number): Promise<Target | string> {
  const missing = unavailableReason('rgw');
  if (missing) return missing;
  const rgw = await startReference('rgw', { memstoreBytes });
  const { url, users } = rgw.endpoints;
  const u = users.tester;
  return target({
    name: 'rgw',
    storesOnThisDisk: false,
    connection: s3Connection(url, u.accessKey, u.secretKey),
    rclone: rcloneS3(url, u.accessKey, u.secretKey),
    s3: { endpoint: url, accessKey: u.accessKey, secretKey: u.secretKey },
    reclaim: () => void rgwAdmin(rgw.endpoints, ['gc', 'process', '--include-all']),
    serverCpuMicros: () => groupCpuMicros(rgw.groups()),
    stop: () => rgw.stop(),
  });
}

export async function startSwiftTarget(): Promise<Target | string> {
  const missing = unavailableReason('swift');
  if (missing) return missing;
  const swift = await startReference('swift');
  const { url, authUrl, users } = swift.endpoints;
  const user = `${users.tester.account}:${users.tester.user}`;
  const key = users.tester.key;
  return target({
    name: 'swift',
    storesOnThisDisk: true,
    connection: { kind: 'swift', authUrl, auth: { type: 'v1', user, key }, interface: 'public' },
    rclone: { remote: ':swift:', flags: ['--swift-auth', authUrl, '--swift-user', user, '--swift-key', key, '--swift-env-auth=false'] },
    // Swift's s3api takes the v1 user as the access key and its key as the secret.
    s3: { endpoint: url, accessKey: user, secretKey: key },
    serverCpuMicros: () => groupCpuMicros(swift.groups()),
    stop: () => swift.stop(),
  });
}
