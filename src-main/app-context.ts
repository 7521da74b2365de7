// First: the engine's facade bounds the heap's growth before the rest of the app loads
// (engine/heap-growth.ts says why).
import './engine/index.js';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { LocalBackend } from './backends/local.js';
import { makeRemoteBackend } from './backends/factory.js';
import { type AccountInfo, Engine, type EngineOptions } from './engine/index.js';
import { startServer, type RunningServer } from './http/server.js';
import type { ObjectReader } from './http/ui/object-response.js';
import type { ZipRequest } from './http/ui/zip.js';
import { loadSessionSecret } from './http/ui/session.js';
import { RpcHost } from './rpc-host.js';
import { createServices, type AppServices } from './services/index.js';
import type { BackendFactory } from './services/connections.js';
import type { HostShell } from './services/host-shell.js';
import { fileSecretBox, type SecretBox } from './services/secrets.js';
import { zipEntries } from './services/zip-selection.js';

export interface AppOptions {
  dataDir: string;
  host?: string;
  port?: number;
  domain?: string;
  log?: (line: string) => void;
  engine?: Partial<EngineOptions>;
  /**
   * Where remote credentials rest: Electron safeStorage in the desktop app, the OS keyring in
   * `coffer serve`; by default (tests) a private file, so no test writes to the user's keyring.
   */
  secrets?: SecretBox;
  /** Serve the browser build and the contract over HTTP at /_coffer/ (`coffer serve --ui`). */
  ui?: boolean | { staticDir?: string };
  makeBackend?: BackendFactory;
  /** Native dialogs (the Electron main process passes them). */
  shell?: HostShell;
}

export interface AppContext {
  engine: Engine;
  server: RunningServer;
  rpc: RpcHost;
  app: AppServices;
  /** Objects' bytes for the app's own page: the browser build's downloads and previews, the desktop app's previews. */
  objects: ObjectReader;
  /** The account the bare connection id `local` names: the first by id (the user may show another). */
  localAccount: AccountInfo;
  /** Created at this start because the store had no user yet. */
  createdFirstUser: boolean;
  /** The browser build's URL with its session token, when ui is on. */
  uiUrl?: string;
  close(): Promise<void>;
}

/** The built renderer, dist/renderer: seen from src-main/ when the sources run (tsx), from dist/src-main/ when compiled. */
const DEFAULT_UI_DIR = fileURLToPath(new URL(import.meta.url.includes('/dist/src-main/') ? '../renderer' : '../dist/renderer', import.meta.url));
const FIRST_USER = 'coffer$admin';

async function firstAccount(engine: Engine): Promise<{ account: AccountInfo; created: boolean }> {
  const [existing] = engine.listAccounts();
  if (existing) return { account: existing, created: false };
  const account = await engine.createAccount({ id: FIRST_USER, displayName: 'Coffer admin', swiftKeys: [{ sub: 'swift' }] });
  return { account, created: true };
}

/**
 * The one composition root: engine -> local and remote backends -> services and the contract
 * host -> the HTTP server (both APIs, and the browser build when asked). `coffer serve` and the
 * Electron main process both start here; tests build the same graph on a temp directory.
 */
export async function createAppContext(opts: AppOptions): Promise<AppContext> {
  const staticDir = (typeof opts.ui === 'object' && opts.ui.staticDir) || DEFAULT_UI_DIR;
  // No link is handed out to an app that is not there.
  if (opts.ui && !existsSync(join(staticDir, 'index.html'))) {
    throw new Error(`The browser app is not built (${join(staticDir, 'index.html')} is missing): run \`npm run build\` first, or \`npm start\`, which builds it and opens it`);
  }
  const engine = await Engine.open(opts.dataDir, opts.engine);
  try {
    const { account, created } = await firstAccount(engine);
    // The server starts first (its URL feeds the local backend's share links); the contract host
    // it serves to the browser build is filled in right after.
    const events = new EventEmitter();
    const late: { rpc?: RpcHost; app?: AppServices } = {};
    const sessionToken = opts.ui ? loadSessionSecret(opts.dataDir) : '';
    let port = 0;
    const objects: ObjectReader = {
      head: (t) => late.app!.registry.backend(t.account).head(t.container, t.name),
      read: (t, range) => late.app!.registry.backend(t.account).download(t.container, t.name, range ? { range } : {}).then(({ details, body }) => ({ facts: details, body })),
    };
    const ui = opts.ui
      ? {
          rpc: { call: (m: string, a: unknown) => late.rpc!.call(m, a), events },
          upload: (id: string, body: Readable) => late.app!.transfers.attachStream(id, body),
          objects,
          zipSource: (r: ZipRequest) => zipEntries(late.app!.registry.backend(r.account), r),
          staticDir,
          sessionToken,
          port: () => port,
        }
      : undefined;
    const server = await startServer({
      engine,
      secret: engine.secret,
      ...(opts.host !== undefined ? { host: opts.host } : {}),
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.domain !== undefined ? { domain: opts.domain } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...(ui ? { ui } : {}),
    });
    port = server.port;
    const app = createServices({
      engine,
      dataDir: opts.dataDir,
      url: () => server.url,
      localBackend: (id) => new LocalBackend(engine, id, { endpoint: server.url }),
      makeBackend: opts.makeBackend ?? makeRemoteBackend,
      secrets: opts.secrets ?? fileSecretBox,
      ...(opts.shell ? { shell: opts.shell } : {}),
      emit: (event, payload) => events.emit(event, payload),
    });
    const rpc = new RpcHost(app.services, events);
    Object.assign(late, { rpc, app });
    engine.events.on('objects.changed', (c) => {
      const connection = app.localAccounts.connectionOf(c.tenant, c.container);
      if (connection) rpc.emit('objects.changed', { account: connection, container: c.container, names: c.names });
    });
    return {
      engine,
      server,
      rpc,
      app,
      objects,
      localAccount: engine.getAccount(account.id),
      createdFirstUser: created,
      ...(ui ? { uiUrl: `${server.url}/_coffer/?token=${sessionToken}` } : {}),
      async close() {
        // Each is bounded (transfers give their attempts 5 s, the server its requests 5 s); the
        // engine closes last, once its last acknowledged write is on disk.
        await Promise.all([app.transfers.close(), server.close()]);
        await engine.close();
      },
    };
  } catch (err) {
    await engine.close();
    throw err;
  }
}
