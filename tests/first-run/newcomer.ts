// What a newcomer has: a checkout of this tree with nothing built (a copy of the working tree as
// git sees it, sharing this repo's node_modules), and the commands they type, run as child
// processes on a terminal of their own, each bounded in time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface Checkout {
  dir: string;
  /** The per-user directories the commands see (XDG_CONFIG_HOME): the desktop store lands here. */
  config: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** The working tree's files (tracked and new, not ignored) in a fresh directory: no dist/. */
export function checkout(): Checkout {
  const base = mkdtempSync(join(tmpdir(), 'coffer-newcomer-'));
  const dir = join(base, 'coffer');
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    // Deleted and not yet committed; or a worktree's node_modules symlink, which git does not ignore.
    if (!existsSync(join(REPO, file)) || file === 'node_modules') continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(REPO, file), join(dir, file));
  }
  symlinkSync(realpathSync(join(REPO, 'node_modules')), join(dir, 'node_modules'));
  const config = join(base, 'config');
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: config, CI: 'true' };
  // No window, no browser opened, no session keyring of the user's touched.
  for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS']) delete env[name];
  return { dir, config, env, remove: () => rmSync(base, { recursive: true, force: true }) };
}

export interface Command {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects after `ms` or on exit. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` to the command's whole process group, as a terminal does on Ctrl-C. */
  signal(signal: NodeJS.Signals): void;
  /** Waits up to `ms` for the exit; false if it did not come. */
  exitsWithin(ms: number): Promise<boolean>;
  /** SIGKILL to the group (cleanup). */
  kill(): void;
}

export function run(cwd: string, env: NodeJS.ProcessEnv, command: string, args: string[]): Command {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  void exited.then(() => (done = true));
  const group = (signal: NodeJS.Signals | 0) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone
    }
  };
  return {
    child,
    output: () => out,
    exited,
    signal: (signal) => group(signal),
    kill: () => group('SIGKILL'),
    exitsWithin: (ms) => Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]),
    waitFor: (pattern, ms) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out);
          if (match) return finish(() => resolve(match));
          if (done) return finish(() => reject(new Error(`exited before printing ${pattern}:\n${out}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${ms} ms:\n${out}`))), ms);
        const finish = (then: () => void) => {
          clearTimeout(timer);
          clearInterval(poll);
          then();
        };
        const poll = setInterval(check, 50);
        check();
      }),
  };
}

/** True while any process of the group started by `command` is alive. */
export function groupAlive(command: Command): boolean {
  try {
    process.kill(-command.child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

/** The browser's first visit: the printed link, its redirect and the session cookie it sets. */
export async function openLink(link: string): Promise<{ cookie: string; page: Response }> {
  const first = await fetch(link, { redirect: 'manual' });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
  const page = await fetch(new URL(first.headers.get('location') ?? '/', link), { headers: { Cookie: cookie } });
  return { cookie, page };
}
