#!/usr/bin/env node
// `npm start`, once `npm run build` has run: the desktop app where Electron is installed and has a
// display to show its window on; otherwise the same app in the browser, served by `coffer serve
// --ui` from the store the desktop app uses, with the default browser opened on it where one can
// be. Arguments go to `coffer serve` (`npm start -- --port 0`). Ctrl-C stops either, and so does a
// SIGTERM sent to npm alone.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The Electron executable, or why the desktop window cannot open here. */
function desktop() {
  let executable;
  try {
    // The package's main export is its binary's path; it throws when the binary was never
    // downloaded, and the package is absent where npm left the optional dependency out.
    executable = createRequire(join(root, 'package.json'))('electron');
  } catch {
    return { reason: 'Electron is not installed (its download failed or was skipped)' };
  }
  if (typeof executable !== 'string' || !existsSync(executable)) return { reason: 'Electron is not installed (its download failed or was skipped)' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { reason: 'there is no display for its window' };
  return { executable };
}

/** Where Electron keeps this app's data (app.getPath('userData') for the name "coffer"), so both ways open one store. */
function desktopStore() {
  const appData =
    process.platform === 'win32'
      ? process.env.APPDATA || join(homedir(), 'AppData', 'Roaming')
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(appData, 'coffer', 'store');
}

/** Runs a child on this terminal until it exits; a stop signal sent to this process alone is passed on. */
function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  // Ctrl-C reaches the child from the terminal as well; it ignores the second signal.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  // A SIGTERM sent to npm alone ends npm and the shell it runs this in, which do not pass it on:
  // orphaned, this stops what it started.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && child.kill('SIGTERM'), 1000).unref();
  child.on('error', (err) => {
    process.stderr.write(`coffer: ${command}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** `coffer serve`'s own default port, 7480, unless asked for another or taken (then a free one: the browser just follows the link). */
async function portArgs(args) {
  if (args.some((a) => a === '--port' || a.startsWith('--port='))) return [];
  const free = await new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(7480, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
  if (free) return [];
  process.stdout.write('Port 7480 is taken: serving on a free one.\n');
  return ['--port', '0'];
}

const found = desktop();
if (found.executable) {
  run(found.executable, ['.']);
} else {
  process.stdout.write(`Opening Coffer in your browser instead of its own window: ${found.reason}.\n`);
  const args = process.argv.slice(2);
  run(process.execPath, [join(root, 'src-main', 'bin', 'coffer.mjs'), 'serve', '--ui', '--open', '--data', desktopStore(), ...(await portArgs(args)), ...args]);
}
