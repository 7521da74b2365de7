// A `coffer serve --ui` of a spec's own, for what the shared server must not go through: being
// stopped and started again. Same command as the global setup, on a data directory of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface OwnServer {
  /** The printed link, with its session token. */
  link: string;
  base: string;
  port: number;
  /** SIGTERM, and waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

export function startOwnServer(data: string, port = 0): Promise<OwnServer> {
  const child: ChildProcess = spawn(process.execPath, ['src-main/bin/coffer.mjs', 'serve', '--data', data, '--port', String(port), '--ui', '--quiet'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`coffer serve printed no UI link within 30 s:\n${out}`));
    }, 30_000);
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Browser UI[^\n]*?: (http:\/\/\S+\/_coffer\/\?token=\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      const url = new URL(match[1]!);
      resolve({ link: match[1]!, base: url.origin, port: Number(url.port), stop });
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`coffer serve exited with ${code}:\n${out}`));
    });
  });
}
