import { Engine } from './engine/engine.js';
import type { EngineOptions } from './engine/context.js';
import { startServer, type RunningServer } from './http/server.js';

export interface AppOptions {
  dataDir: string;
  host?: string;
  port?: number;
  domain?: string;
  log?: (line: string) => void;
  engine?: Partial<EngineOptions>;
}

export interface AppContext {
  engine: Engine;
  server: RunningServer;
  close(): Promise<void>;
}

/** The one composition root: engine, then the HTTP server over it. `coffer serve` and the Electron main start here. */
export async function createAppContext(opts: AppOptions): Promise<AppContext> {
  const engine = await Engine.open(opts.dataDir, opts.engine);
  let server: RunningServer;
  try {
    server = await startServer({
      engine,
      secret: engine.secret,
      ...(opts.host !== undefined ? { host: opts.host } : {}),
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.domain !== undefined ? { domain: opts.domain } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
  } catch (err) {
    await engine.close();
    throw err;
  }
  return {
    engine,
    server,
    async close() {
      await server.close();
      await engine.close();
    },
  };
}
