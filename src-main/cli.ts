// First: the engine's facade bounds the heap's growth before the rest of the app loads
// (engine/heap-growth.ts says why).
import './engine/index.js';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import envPaths from 'env-paths';
import { CofferError } from '../src-shared/errors.js';
import { createAppContext } from './app-context.js';
import { purgeAccountData, userJson } from './cli/admin.js';
import { openInBrowser } from './cli/open-browser.js';
import { Engine } from './engine/index.js';
import { logUnhandledRejections } from './process-guards.js';
import { keyringSecretBox } from './services/keyring-box.js';

const USAGE = `Usage:
  coffer serve [--data DIR] [--host 127.0.0.1] [--port 7480] [--domain NAME] [--ui [--open]]
  coffer user create --uid 'TENANT$NAME' [--display-name N] [--access-key AK --secret-key SK] [--swift-user SUB --swift-key KEY]
  coffer user info --uid U | coffer user list | coffer user rm --uid U [--purge-data]
  coffer key add --uid U [--access-key AK --secret-key SK] [--swift-user SUB --swift-key KEY]
  coffer quota set --uid U [--bucket B] [--max-size BYTES] [--max-objects N]   (-1 = unlimited)
Every command takes --data DIR (default: ${defaultDataDir()}).`;

const OPTIONS = {
  data: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '7480' },
  domain: { type: 'string' },
  uid: { type: 'string' },
  'display-name': { type: 'string' },
  'access-key': { type: 'string' },
  'secret-key': { type: 'string' },
  'swift-user': { type: 'string' },
  'swift-key': { type: 'string' },
  bucket: { type: 'string' },
  'max-size': { type: 'string' },
  'max-objects': { type: 'string' },
  'purge-data': { type: 'boolean' },
  quiet: { type: 'boolean' },
  ui: { type: 'boolean' },
  open: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Args = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function defaultDataDir(): string {
  return envPaths('coffer', { suffix: '' }).data;
}

function usageError(message: string): never {
  throw new CofferError('InvalidArgument', `${message}\n\n${USAGE}`);
}

function need(args: Args, name: 'uid'): string {
  return args[name] ?? usageError(`--${name} is required`);
}

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) usageError(`${flag} must be an integer`);
  return Number(value);
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Admin commands open the store without recovery, so they are safe while a server runs on it. */
async function withEngine<T>(args: Args, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await Engine.open(args.data ?? defaultDataDir(), { recover: false, expirySweepMs: 0 });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

function keysFrom(args: Args) {
  return {
    keys: args['access-key'] || args['secret-key'] ? [{ accessKey: args['access-key'], secretKey: args['secret-key'] }] : undefined,
    // `--swift-key` alone is the key of the default sub-user `swift` (never silently dropped).
    swiftKeys: args['swift-user'] || args['swift-key'] ? [{ sub: args['swift-user'] || 'swift', secretKey: args['swift-key'] }] : undefined,
  };
}

async function admin(cmd: string, args: Args): Promise<void> {
  await withEngine(args, async (engine) => {
    switch (cmd) {
      case 'user create': {
        const { keys, swiftKeys } = keysFrom(args);
        const created = await engine.createAccount({
          id: need(args, 'uid'),
          ...(args['display-name'] ? { displayName: args['display-name'] } : {}),
          ...(keys ? { keys } : {}),
          swiftKeys: swiftKeys ?? [{ sub: 'swift' }],
        });
        return print(userJson(created));
      }
      case 'user info':
        return print(userJson(engine.getAccount(need(args, 'uid'))));
      case 'user list':
        return print(engine.listAccounts().map((a) => a.id));
      case 'user rm': {
        const uid = need(args, 'uid');
        if (args['purge-data']) await purgeAccountData(engine, uid);
        return engine.deleteAccount(uid);
      }
      case 'key add': {
        const uid = need(args, 'uid');
        const { keys, swiftKeys } = keysFrom(args);
        if (swiftKeys) for (const k of swiftKeys) await engine.addSwiftKey(uid, k.sub, k.secretKey);
        if (keys || !swiftKeys) await engine.addAccessKey(uid, keys?.[0] ?? {});
        return print(userJson(engine.getAccount(uid)));
      }
      case 'quota set': {
        const uid = need(args, 'uid');
        const maxBytes = integer(args['max-size'], '--max-size');
        const maxObjects = integer(args['max-objects'], '--max-objects');
        const quota = { ...(maxBytes !== undefined ? { maxBytes } : {}), ...(maxObjects !== undefined ? { maxObjects } : {}) };
        if (args.bucket) {
          engine.getAccount(uid);
          const c = await engine.updateContainer(Engine.ref(uid, args.bucket), { quota });
          return print({ bucket: c.name, bucket_quota: { max_size: c.quota.maxBytes, max_objects: c.quota.maxObjects } });
        }
        return print(userJson(await engine.setAccountQuota(uid, quota)));
      }
      default:
        usageError(`Unknown command: ${cmd}`);
    }
  });
}

/** One server per data directory: a pid file taken with O_EXCL, reclaimed when its process is gone. */
function lockDataDir(dir: string): () => void {
  const file = join(dir, 'coffer.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      let alive = false;
      try {
        alive = pid > 0 && process.kill(pid, 0);
      } catch {
        alive = false;
      }
      if (alive) throw new CofferError('InvalidArgument', `Another coffer server (pid ${pid}) is serving ${dir}`);
      rmSync(file, { force: true });
    }
  }
  throw new CofferError('InternalError', `Could not lock ${dir}`);
}

/** Past this, a stop that is still waiting (on a handler that ignores its aborts) exits anyway: every acknowledged write is on disk already. */
const STOP_DEADLINE_MS = 15_000;

async function serve(args: Args): Promise<void> {
  if (args.open && !args.ui) usageError('--open opens the browser UI: it needs --ui');
  const dataDir = args.data ?? defaultDataDir();
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let app: Awaited<ReturnType<typeof createAppContext>>;
  let secretsNote: string;
  try {
    const port = integer(args.port, '--port') ?? 7480;
    const log = args.quiet ? undefined : (line: string) => process.stdout.write(`${line}\n`);
    logUnhandledRejections((line) => process.stderr.write(`${line}\n`));
    const secrets = await keyringSecretBox(dataDir);
    secretsNote = secrets.note;
    app = await createAppContext({
      dataDir,
      secrets: secrets.box,
      host: args.host!,
      port,
      ui: !!args.ui,
      ...(args.domain ? { domain: args.domain } : {}),
      ...(log ? { log } : {}),
    });
  } catch (err) {
    unlock();
    throw err;
  }
  const base = app.server.url;
  if (app.createdFirstUser) process.stdout.write(`Created the first user:\n${JSON.stringify(userJson(app.localAccount), null, 2)}\n`);
  process.stdout.write(
    `Native API (Swift): auth ${base}/auth/1.0, storage ${base}/v1/AUTH_<tenant>$<name>\n` +
      `Compatible API (S3): endpoint ${base} (path style${args.domain ? `, or <bucket>.${args.domain}` : ''})\n` +
      (app.uiUrl ? `Browser UI (keep this link private, it carries the session token): ${app.uiUrl}\n` : '') +
      `Data: ${dataDir}\n${secretsNote}\nlistening on ${base}\n`,
  );
  if (app.uiUrl && args.open) {
    const note = openInBrowser(app.uiUrl);
    if (note) process.stdout.write(`Not opening a browser (${note}).\n`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping (requests under way get a few seconds to finish)\n`);
    setTimeout(() => {
      process.stderr.write('coffer: still stopping after 15 s; exiting\n');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    let code = 0;
    try {
      await app.close();
    } catch (err) {
      process.stderr.write(`coffer: while stopping: ${(err as Error)?.stack ?? String(err)}\n`);
      code = 1;
    }
    unlock();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
}

/** `--max-size -1` (the documented "unlimited"): parseArgs takes `-1` for an option, so join it to its flag. */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (/^--[a-z-]+$/.test(arg) && next !== undefined && /^-\d+$/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: joinNegativeValues(argv), options: OPTIONS, allowPositionals: true, strict: true });
  const [first, second] = positionals;
  if (values.help || !first) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (first === 'serve') return serve(values);
  return admin(`${first} ${second ?? ''}`.trim(), values);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = err instanceof CofferError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`coffer: ${message}\n`);
  process.exit(1);
});
