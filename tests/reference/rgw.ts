// Ceph RGW from Debian as the tests' reference: one monitor, one memstore OSD (RAM only, so every
// start is a fresh cluster), pool size 1, no cephx, and radosgw serving S3, its Swift API and
// the admin API on a free loopback port.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort, runTool, startDaemon, waitUntil, type Daemon } from './processes.js';

export interface RgwUser {
  uid: string;
  accessKey: string;
  secretKey: string;
  /** The Swift sub-user (`<uid>:swift`) and its key, for v1 auth at `/auth/1.0`. */
  swiftUser: string;
  swiftKey: string;
}

export interface RgwEndpoints {
  /** radosgw's root: S3 (path style), `/auth/1.0`, `/swift/v1`, `/swift/info`. */
  url: string;
  authUrl: string;
  /** `differential` and `differentialOther`: the differential suite's own pair (see SwiftEndpoints). */
  users: { tester: RgwUser; other: RgwUser; differential: RgwUser; differentialOther: RgwUser };
  /** The cluster's ceph.conf, for `rgwAdmin` (plain data, so the endpoints can be shared between test files). */
  conf: string;
}

/** Runs `radosgw-admin` against the cluster (users, quotas, …); returns its stdout. */
export function rgwAdmin(rgw: Pick<RgwEndpoints, 'conf'>, args: string[]): string {
  return runTool('radosgw-admin', ['-c', rgw.conf, ...args], { log: join(dirname(rgw.conf), 'admin.log') });
}

export const RGW_COMMANDS = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph'];

function cephConf(dir: string, ports: { mon: number; msgrMin: number; rgw: number }, fsid: string, memstoreBytes: number): string {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${ports.mon}
mon initial members = a
public network = 127.0.0.0/8
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
ms client mode = crc
ms bind msgr1 = false
ms bind port min = ${ports.msgrMin}
ms bind port max = ${ports.msgrMin + 20}
run dir = ${dir}/run
admin socket = ${dir}/run/$cluster-$name.asok
log file = ${dir}/$name.log
pid file = ${dir}/run/$name.pid
keyring = ${dir}/keyring
osd objectstore = memstore
memstore device bytes = ${memstoreBytes}
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
osd crush chooseleaf type = 0
mon data = ${dir}/mon-$id
osd data = ${dir}/osd-$id
mon warn on pool no redundancy = false

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:${ports.rgw}
rgw enable apis = s3, swift, swift_auth, admin
rgw swift url = http://127.0.0.1:${ports.rgw}
rgw dns name = 127.0.0.1
rgw thread pool size = 64
`;
}

/** A port with `span` free ports after it, for the OSD's and radosgw's messengers. */
async function portRange(span: number): Promise<number> {
  for (let tries = 0; tries < 20; tries++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const probes = await Promise.all(Array.from({ length: span }, (_, i) => isFree(base + i)));
    if (probes.every(Boolean)) return base;
  }
  throw new Error('No range of free ports for the Ceph messengers');
}

async function isFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Starts the cluster in `dir` (empty, ours); every daemon is a group of its own listed in `groupsFile`. */
export interface RgwOptions {
  /** The memstore OSD's capacity (default 2 GiB): objects live in memory, so a benchmark's large files need more. */
  memstoreBytes?: number;
}

export async function startRgw(dir: string, groupsFile: string, opts: RgwOptions = {}): Promise<RgwEndpoints> {
  const conf = join(dir, 'ceph.conf');
  const log = join(dir, 'setup.log');
  mkdirSync(join(dir, 'run'), { recursive: true });
  const ports = { mon: await freePort(), msgrMin: await portRange(21), rgw: await freePort() };
  const fsid = randomUUID();
  writeFileSync(conf, cephConf(dir, ports, fsid, opts.memstoreBytes ?? 2 * 1024 ** 3));
  writeFileSync(join(dir, 'keyring'), '');
  const c = ['-c', conf];
  const tool = (cmd: string, args: string[]) => runTool(cmd, [...c, ...args], { log, timeoutMs: 60_000 });

  runTool('monmaptool', ['--create', '--add', 'a', `v2:127.0.0.1:${ports.mon}`, '--fsid', fsid, join(dir, 'monmap')], { log });
  tool('ceph-mon', ['--mkfs', '-i', 'a', '--monmap', join(dir, 'monmap')]);
  const daemons: Daemon[] = [startDaemon('ceph-mon', 'ceph-mon', [...c, '-f', '-i', 'a'], { log: join(dir, 'mon.out'), groupsFile })];

  const osdUuid = randomUUID();
  // `ceph osd new` waits for the monitor; its answer is the new OSD's id.
  const osdId = tool('ceph', ['--connect-timeout', '30', 'osd', 'new', osdUuid]).trim();
  mkdirSync(join(dir, `osd-${osdId}`), { recursive: true });
  tool('ceph-osd', ['-i', osdId, '--mkfs', '--osd-uuid', osdUuid]);
  daemons.push(startDaemon('ceph-osd', 'ceph-osd', [...c, '-f', '-i', osdId], { log: join(dir, 'osd.out'), groupsFile }));
  await waitUntil('Ceph OSD', async () => /"num_up_osds":1/.test(tool('ceph', ['osd', 'stat', '--format', 'json'])), { timeoutMs: 60_000, daemons, log: join(dir, `osd.${osdId}.log`) });

  daemons.push(startDaemon('radosgw', 'radosgw', [...c, '-f', '-n', 'client.rgw.a'], { log: join(dir, 'rgw.out'), groupsFile }));
  const url = `http://127.0.0.1:${ports.rgw}`;
  await waitUntil('radosgw', async () => (await fetch(url)).status === 200, { timeoutMs: 90_000, daemons, log: join(dir, 'client.rgw.a.log') });

  const admin = (args: string[]) => rgwAdmin({ conf }, args);
  const user = (uid: string): RgwUser => {
    const u: RgwUser = { uid, accessKey: `${uid.toUpperCase()}ACCESSKEY`, secretKey: `${uid}-secret-key`, swiftUser: `${uid}:swift`, swiftKey: `${uid}-swift-key` };
    admin(['user', 'create', '--uid', uid, '--display-name', uid, '--access-key', u.accessKey, '--secret', u.secretKey]);
    admin(['subuser', 'create', '--uid', uid, '--subuser', u.swiftUser, '--access=full', '--secret', u.swiftKey, '--key-type=swift']);
    return u;
  };
  return { url, authUrl: `${url}/auth/1.0`, users: { tester: user('tester'), other: user('other'), differential: user('diff-tester'), differentialOther: user('diff-other') }, conf };
}
