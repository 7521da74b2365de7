// What the swift CLI tests share: the python that has swiftclient, the clients' environment, and `swift stat`'s fields.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `swift stat`'s "Name: value" lines as a record. */
export function statFields(out: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const m = /^\s*([^:]+?):\s?(.*)$/.exec(line);
    if (m) fields[m[1]!.trim()] = m[2]!.trim();
  }
  return fields;
}

/** The python interpreter that has swiftclient: the one the `swift` script runs with. */
export function python(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = join(dir, 'swift');
    if (existsSync(p)) {
      const m = /^#!\s*(\S+)/.exec(readFileSync(p, 'utf8').split('\n')[0] ?? '');
      if (m && existsSync(m[1]!)) return m[1]!;
    }
  }
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

/** The environment for the Swift clients: the machine's without proxies or OpenStack/swift settings, plus `extra` (credentials). */
export function swiftClientEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(OS_|ST_|SWIFTCLIENT_)|proxy/i.test(k)) env[k] = v;
  return { ...env, NO_PROXY: '*', LC_ALL: 'C.UTF-8', ...extra };
}
