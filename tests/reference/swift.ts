// OpenStack Swift from Debian as the tests' reference: one node, one replica, tempauth, and the
// middleware a real cluster runs, on free loopback ports, in a directory of its own.
import { writeFileSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, runTool, startDaemon, waitUntil, type Daemon } from './processes.js';

/** A tempauth user: v1 auth as `<account>:<user>` with `key`; s3api takes the same pair as access key and secret. */
export interface SwiftUser {
  account: string;
  user: string;
  key: string;
}

export interface SwiftEndpoints {
  /** The proxy's root (`http://127.0.0.1:PORT`): `/info`, `/v1/AUTH_<account>`, and s3api. */
  url: string;
  /** v1 auth (`/auth/v1.0`). */
  authUrl: string;
  /**
   * `.admin` in their own account; `reseller` also `.reseller_admin` (may create and read any account).
   * `differential` and `differentialOther` are the differential suite's own pair of accounts: its
   * hundreds of writes would otherwise move the counters the contract suite checks on `tester`'s.
   */
  users: { tester: SwiftUser; other: SwiftUser; reseller: SwiftUser; differential: SwiftUser; differentialOther: SwiftUser };
}

/** Debian's packages the Swift reference needs, by the command each installs. */
export const SWIFT_COMMANDS = ['swift-proxy-server', 'swift-account-server', 'swift-container-server', 'swift-object-server', 'swift-ring-builder', 'memcached'];

/** Swift's own scripts run under Debian's interpreter, where python3-swift is; PATH may lead to another. */
const PYTHON = '/usr/bin/python3';
/** Swift's daemons switch to `user` (default `swift`), who could not read our private temp directory. */
const RUN_AS = userInfo().username;
const LAUNCHER = fileURLToPath(new URL('./swift-server.py', import.meta.url));

const USERS: SwiftEndpoints['users'] = {
  tester: { account: 'test', user: 'tester', key: 'testing' },
  other: { account: 'test2', user: 'tester2', key: 'testing2' },
  reseller: { account: 'admin', user: 'admin', key: 'admin' },
  differential: { account: 'diff', user: 'tester', key: 'diff-testing' },
  differentialOther: { account: 'diff2', user: 'tester2', key: 'diff-testing2' },
};

const PIPELINE =
  'catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl formpost s3api tempauth ' +
  'staticweb copy container-quotas account-quotas slo dlo versioned_writes symlink proxy-logging proxy-server';

function ini(sections: Record<string, Record<string, string | number>>): string {
  return Object.entries(sections)
    .map(([name, kv]) => `[${name}]\n${Object.entries(kv).map(([k, v]) => `${k} = ${v}`).join('\n')}\n`)
    .join('\n');
}

function proxyConf(dir: string, port: number, memcachePort: number): string {
  const filters = ['catch_errors', 'gatekeeper', 'healthcheck', 'proxy-logging', 'listing_formats', 'bulk', 'tempurl', 'formpost', 'staticweb', 'copy', 'slo', 'dlo', 'symlink'];
  const sections: Record<string, Record<string, string | number>> = {
    DEFAULT: { bind_ip: '127.0.0.1', bind_port: port, swift_dir: dir, workers: 0, log_level: 'INFO', user: RUN_AS },
    'pipeline:main': { pipeline: PIPELINE },
    // error_suppression_interval 0: with one node, a single 507 (metadata whose xattrs do not fit
    // on ext4) would otherwise take the only object server out for 60 s, every PUT then a 503.
    'app:proxy-server': { use: 'egg:swift#proxy', allow_account_management: 'true', account_autocreate: 'true', error_suppression_interval: 0 },
    'filter:cache': { use: 'egg:swift#memcache', memcache_servers: `127.0.0.1:${memcachePort}` },
    'filter:tempauth': {
      use: 'egg:swift#tempauth',
      ...Object.fromEntries(
        Object.entries(USERS).map(([role, u]) => [`user_${u.account}_${u.user}`, `${u.key} .admin${role === 'reseller' ? ' .reseller_admin' : ''}`]),
      ),
    },
    'filter:s3api': { use: 'egg:swift#s3api', allow_multipart_uploads: 'true', location: 'us-east-1' },
    'filter:container-quotas': { use: 'egg:swift#container_quotas' },
    'filter:account-quotas': { use: 'egg:swift#account_quotas' },
    'filter:versioned_writes': { use: 'egg:swift#versioned_writes', allow_versioned_writes: 'true', allow_object_versioning: 'true' },
  };
  for (const f of filters) sections[`filter:${f}`] = { use: `egg:swift#${f.replace(/-/g, '_')}` };
  return ini(sections);
}

function storageConf(dir: string, port: number, kind: 'account' | 'container' | 'object'): string {
  const app: Record<string, string | number> = { use: `egg:swift#${kind}` };
  // The legacy X-Versions-Location mode needs the container server's consent.
  if (kind === 'container') app.allow_versions = 'true';
  // An object PUT tells the container server in the request; one that does not answer in time
  // (0.5 s to connect, 3 s to reply by default: CI's two loaded cores miss that) leaves the
  // update to the object updater, and the container and account figures stay behind until it runs.
  if (kind === 'object') Object.assign(app, { conn_timeout: 5, node_timeout: 10, container_update_timeout: 10 });
  return ini({
    // recon_cache_path: the updaters write their sweep times there (/var/cache/swift is not ours).
    DEFAULT: { bind_ip: '127.0.0.1', bind_port: port, swift_dir: dir, devices: join(dir, 'devices'), mount_check: 'false', workers: 0, log_level: 'INFO', user: RUN_AS, recon_cache_path: dir },
    'pipeline:main': { pipeline: `${kind}-server` },
    [`app:${kind}-server`]: app,
    // Production's 300 s between sweeps: each forks a Python child, and at 1 s the two updaters
    // burned about 0.7 of a core with no load at all (14 s of CPU in 20 idle seconds), a third of
    // a two-core machine, under every test and benchmark. Listings do not wait for them (a PUT
    // updates its container in the request); a test that reads the account's counts reports its
    // container itself (swift-update-container.py). A report that times out would otherwise
    // silence the whole account for 60 s (account_suppression_time).
    ...(kind === 'container'
      ? { 'container-updater': { interval: 300, concurrency: 1, node_timeout: 10, account_suppression_time: 1, containers_per_second: 1000 } }
      : {}),
    // Sends the container updates an object server had to postpone (one that did not answer in
    // container_update_timeout), every 300 s as in production.
    ...(kind === 'object' ? { 'object-updater': { interval: 300, concurrency: 1, conn_timeout: 5, node_timeout: 10 } } : {}),
  });
}

/**
 * Starts Swift in `dir` (empty, ours): memcached (tempauth keeps its tokens there), the account,
 * container and object servers, the proxy, the container updater (the account's counts come
 * from it, so they lag up to its 300 s sweep, as in production) and the object
 * updater (container updates an object server postponed), each a daemon
 * of its own group listed in `groupsFile`. No replicators or auditors: one replica has nothing to
 * replicate.
 */
export async function startSwift(dir: string, groupsFile: string): Promise<SwiftEndpoints> {
  const log = (name: string) => join(dir, `${name}.log`);
  mkdirSync(join(dir, 'devices', 'd1'), { recursive: true });
  writeFileSync(
    join(dir, 'swift.conf'),
    ini({
      'swift-hash': { swift_hash_path_prefix: 'coffer-reference', swift_hash_path_suffix: 'coffer-reference' },
      'storage-policy:0': { name: 'gold', default: 'yes' },
    }),
  );
  const [proxyPort, accountPort, containerPort, objectPort, memcachePort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const ports = { account: accountPort, container: containerPort, object: objectPort };
  for (const kind of ['account', 'container', 'object'] as const) {
    const builder = join(dir, `${kind}.builder`);
    // Part power 6: a one-device ring needs no more, and builds in a fraction of a second.
    runTool('swift-ring-builder', [builder, 'create', '6', '1', '1'], { log: log('rings') });
    runTool('swift-ring-builder', [builder, 'add', `r1z1-127.0.0.1:${ports[kind]}/d1`, '1'], { log: log('rings') });
    // Exit code 1 is "rebalanced with warnings", which a one-device ring always has.
    runTool('swift-ring-builder', [builder, 'rebalance'], { log: log('rings'), allowFail: true });
    writeFileSync(join(dir, `${kind}-server.conf`), storageConf(dir, ports[kind], kind));
  }
  writeFileSync(join(dir, 'proxy-server.conf'), proxyConf(dir, proxyPort, memcachePort));

  const daemons: Daemon[] = [];
  // memcached refuses to run as root unless told which user to become.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'root'] : [];
  daemons.push(startDaemon('memcached', 'memcached', ['-l', '127.0.0.1', '-p', String(memcachePort), '-U', '0', '-m', '64', ...asRoot], { log: log('memcached'), groupsFile }));
  const updaters = { 'container-updater': 'container', 'object-updater': 'object' } as const;
  for (const kind of ['account', 'container', 'object', 'proxy', 'container-updater', 'object-updater'] as const) {
    const updates = kind === 'container-updater' || kind === 'object-updater' ? updaters[kind] : undefined;
    const server = updates ? kind : `${kind}-server`;
    const conf = join(dir, `${updates ?? kind}-server.conf`);
    daemons.push(startDaemon(`swift-${kind}`, PYTHON, [LAUNCHER, dir, conf, server], { log: log(kind), groupsFile }));
  }
  const url = `http://127.0.0.1:${proxyPort}`;
  const users = USERS;
  // Ready when a v1 sign-in works and the account answers: every daemon is then in the path.
  await waitUntil(
    'Swift',
    async () => {
      const auth = await fetch(`${url}/auth/v1.0`, { headers: { 'X-Auth-User': `${users.tester.account}:${users.tester.user}`, 'X-Auth-Key': users.tester.key } });
      await auth.arrayBuffer();
      if (auth.status !== 200) return false;
      const head = await fetch(auth.headers.get('x-storage-url')!, { method: 'HEAD', headers: { 'X-Auth-Token': auth.headers.get('x-auth-token')! } });
      return head.status === 204 || head.status === 200;
    },
    { timeoutMs: 60_000, daemons, log: log('proxy') },
  );
  return { url, authUrl: `${url}/auth/v1.0`, users };
}
