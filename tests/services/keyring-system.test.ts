// The keyring box against a real Secret Service: Debian's gnome-keyring on a private D-Bus
// session bus that this file starts (and stops), so no user's keyring is touched. Reports itself
// skipped, with the reason, where dbus-daemon or gnome-keyring-daemon is not installed (CI
// needs the apt packages dbus-daemon and gnome-keyring). One bus per file: libdbus reads the bus
// address once per process. Without any bus (this machine, CI) the e2e connections spec checks
// what `coffer serve` says and writes.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyringSecretBox, systemKeyStore } from '../../src-main/services/keyring-box.js';
import { CONFIG, SECRET, expectSecretHidden, registryOver, storedIn } from './secrets-kit.js';

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((d) => {
    try {
      accessSync(join(d, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const missing = process.platform !== 'linux' ? 'the Secret Service is Linux only' : ['dbus-daemon', 'gnome-keyring-daemon'].filter((b) => !onPath(b)).map((b) => `${b} is not installed`).join(', ');

// A session bus that activates nothing: only the daemon this file starts answers for the secrets.
const BUS_CONFIG = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=DIR</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`;

let root: string;
let bus: ChildProcess | undefined;
let keyring: ChildProcess | undefined;
const savedAddress = process.env.DBUS_SESSION_BUS_ADDRESS;

async function startBus(): Promise<string> {
  const conf = join(root, 'bus.conf');
  writeFileSync(conf, BUS_CONFIG.replace('DIR', root));
  bus = spawn('dbus-daemon', [`--config-file=${conf}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    bus!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    bus!.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
  });
}

/** gnome-keyring with a login keyring unlocked by a password on stdin, as a desktop login does. */
async function startKeyring(address: string): Promise<void> {
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    env: { ...process.env, HOME: home, XDG_RUNTIME_DIR: home, DBUS_SESSION_BUS_ADDRESS: address },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  keyring.stdin!.end('test-login-password');
  const store = await systemKeyStore();
  for (let i = 0; ; i++) {
    try {
      await store.get('probe');
      return;
    } catch (err) {
      if (i >= 100) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const stop = (child: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'coffer-keyring-'));
});

afterAll(async () => {
  await stop(keyring);
  await stop(bus);
  if (savedAddress === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  else process.env.DBUS_SESSION_BUS_ADDRESS = savedAddress;
  rmSync(root, { recursive: true, force: true });
});

describe('the keyring box with a Secret Service', () => {
  it('with gnome-keyring: seals with a key in the Secret Service, a later start opens it, and a stopped keyring gives a clear error', async (ctx) => {
    if (missing) ctx.skip(missing);
    process.env.DBUS_SESSION_BUS_ADDRESS = await startBus();
    await startKeyring(process.env.DBUS_SESSION_BUS_ADDRESS);
    const dir = mkdtempSync(join(root, 'data-'));
    const first = await keyringSecretBox(dir);
    expect(first.box.atRest).toBe('keyring');
    const { id } = registryOver(dir, first.box).registry.add('sealed', CONFIG);
    expect(storedIn(dir)[0]!.sealed).toMatch(/^k1:/);
    expectSecretHidden(dir);

    const later = registryOver(dir, (await keyringSecretBox(dir)).box);
    later.registry.backend(id);
    expect(later.made).toEqual([CONFIG]);

    await stop(keyring);
    const { box, note } = await keyringSecretBox(dir);
    expect(box.atRest).toBe('file');
    expect(note).toMatch(/not encrypted/);
    const gone = registryOver(dir, box).registry.list().find((c) => c.id === id)!;
    expect(gone).toMatchObject({ state: 'error', error: expect.stringMatching(/system keyring, which cannot be reached/) });
    expect(gone.error).not.toContain(SECRET);
  });
});
