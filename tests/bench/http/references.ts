/**
 * The servers users run in production, as targets of the http bench: Ceph RGW 16.2 (S3, and its
 * Swift API) and OpenStack Swift 2.30 (its native API, and S3 through s3api), each started with
 * `startReference` (tests/reference/: one node, loopback, its own temp directory) where its Debian
 * packages are installed; otherwise the bench says it skipped them and why. A reference is several
 * processes (Swift's proxy, account, container and object servers, memcached and its container
 * updater; RGW's monitor, OSD and radosgw): its CPU time is theirs summed, read from /proc by
 * process group.
 */
import { groupCpuMicros } from '../proc-cpu.js';
import { startReference, unavailableReason, type ReferenceKind } from '../../reference/servers.js';
import type { LoadGenerator } from './load.js';
import { NativeTarget, S3Target, type Target } from './targets.js';

export interface ReferenceTarget {
  t: Target;
  gen: LoadGenerator;
  /** CPU time of every process of the reference so far (µs). */
  cpu(): number;
}

export interface References {
  targets: ReferenceTarget[];
  /** Why a reference was not started (its packages missing, or it failed to start). */
  skipped: Partial<Record<ReferenceKind, string>>;
  /** How long each took to come up, ms. */
  startMs: Partial<Record<ReferenceKind, number>>;
  versions: Partial<Record<ReferenceKind, string>>;
  stop(): Promise<void>;
}

async function versionOf(kind: ReferenceKind, url: string): Promise<string> {
  try {
    if (kind === 'swift') return ((await (await fetch(`${url}/info`)).json()) as { swift: { version: string } }).swift.version;
    const { execFileSync } = await import('node:child_process');
    return /ceph version (\S+)/.exec(execFileSync('radosgw', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Starts Swift and RGW (those installed) and signs in to each of their APIs. `genFor(port)`
 * gives the load generator of a port (one per server, as for Coffer's two APIs).
 */
export async function startReferences(genFor: (port: number) => LoadGenerator, log: (m: string) => void): Promise<References> {
  const refs: References = { targets: [], skipped: {}, startMs: {}, versions: {}, stop: async () => undefined };
  const stops: (() => Promise<void>)[] = [];
  refs.stop = async () => {
    for (const stop of stops.splice(0)) await stop();
  };
  for (const kind of ['swift', 'rgw'] as const) {
    const missing = unavailableReason(kind);
    if (missing) {
      refs.skipped[kind] = missing;
      log(`${kind}: skipped, ${missing}`);
      continue;
    }
    try {
      log(`${kind}: starting`);
      const started = await startReference(kind);
      stops.push(started.stop);
      refs.startMs[kind] = started.startMs;
      const url = started.endpoints.url;
      const port = Number(new URL(url).port);
      const gen = genFor(port);
      const cpu = () => groupCpuMicros(started.groups());
      refs.versions[kind] = await versionOf(kind, url);
      log(`${kind}: ${refs.versions[kind]} up in ${(started.startMs / 1000).toFixed(1)} s on port ${port}`);
      if (kind === 'swift') {
        const e = started.endpoints as { users: { tester: { account: string; user: string; key: string } } };
        const user = `${e.users.tester.account}:${e.users.tester.user}`;
        const authPath = new URL((started.endpoints as { authUrl: string }).authUrl).pathname;
        refs.targets.push({ t: await NativeTarget.login('swift-native', gen, user, e.users.tester.key, authPath), gen, cpu });
        refs.targets.push({ t: new S3Target('swift-s3api', port, user, e.users.tester.key), gen, cpu });
      } else {
        const e = started.endpoints as { users: { tester: { accessKey: string; secretKey: string; swiftUser: string; swiftKey: string } } };
        refs.targets.push({ t: new S3Target('rgw-s3', port, e.users.tester.accessKey, e.users.tester.secretKey), gen, cpu });
        refs.targets.push({ t: await NativeTarget.login('rgw-swift', gen, e.users.tester.swiftUser, e.users.tester.swiftKey), gen, cpu });
      }
    } catch (err) {
      refs.skipped[kind] = `did not start: ${(err as Error).message.slice(0, 500)}`;
      log(`${kind}: ${refs.skipped[kind]}`);
    }
  }
  return refs;
}
