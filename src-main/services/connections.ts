import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { CofferError } from '../../src-shared/errors.js';
import { connectionConfigSchema, LOCAL_CONNECTION_ID, type ConnectionConfig, type ConnectionInfo, type ConnectionState } from '../../src-shared/model/connections.js';
import type { ObjectBackend } from '../backends/object-backend.js';
import { readTextFile, writePrivateFile, type SecretBox } from './secrets.js';

export type BackendFactory = (config: ConnectionConfig) => ObjectBackend;

interface Stored {
  id: string;
  name: string;
  /** The whole config, sealed: it holds keys and passwords. */
  sealed: string;
}

export function endpointOf(config: ConnectionConfig): string {
  return config.kind === 's3' ? config.endpoint : config.authUrl;
}

/**
 * The connections the app knows: the local store (always first) and the remote accounts the
 * user added, persisted in `connections.json` with their secrets sealed. Hands out one backend
 * per connection and tracks whether it last worked.
 */
export class ConnectionRegistry {
  readonly events = new EventEmitter<{ state: [{ id: string; state: ConnectionState; error: string | null }] }>();
  private readonly file: string;
  private stored: Stored[];
  private readonly backends = new Map<string, ObjectBackend>();
  private readonly states = new Map<string, { state: ConnectionState; error: string | null }>();

  constructor(
    dir: string,
    private readonly secrets: SecretBox,
    private readonly local: { backend: ObjectBackend; name: string; endpoint: string },
    private readonly makeBackend: BackendFactory,
  ) {
    this.file = join(dir, 'connections.json');
    this.stored = JSON.parse(readTextFile(this.file) ?? '[]') as Stored[];
    this.states.set(LOCAL_CONNECTION_ID, { state: 'connected', error: null });
  }

  private save(): void {
    writePrivateFile(this.file, JSON.stringify(this.stored, null, 2));
  }

  private configOf(s: Stored): ConnectionConfig {
    return connectionConfigSchema.parse(JSON.parse(this.secrets.open(s.sealed)));
  }

  list(): ConnectionInfo[] {
    const local: ConnectionInfo = { id: LOCAL_CONNECTION_ID, kind: 'local', name: this.local.name, endpoint: this.local.endpoint, state: 'connected', error: null };
    return [local, ...this.stored.map((s) => this.info(s))];
  }

  private info(s: Stored): ConnectionInfo {
    const config = this.configOf(s);
    const st = this.states.get(s.id) ?? { state: 'unknown' as const, error: null };
    return { id: s.id, kind: config.kind, name: s.name, endpoint: endpointOf(config), ...st };
  }

  private find(id: string): Stored {
    const s = this.stored.find((x) => x.id === id);
    if (!s) throw new CofferError('NoSuchAccount', `No connection ${id}`);
    return s;
  }

  add(name: string, config: ConnectionConfig): ConnectionInfo {
    const s: Stored = { id: randomUUID(), name, sealed: this.secrets.seal(JSON.stringify(config)) };
    this.stored.push(s);
    this.save();
    return this.info(s);
  }

  update(id: string, name: string | undefined, config: ConnectionConfig | undefined): ConnectionInfo {
    const s = this.find(id);
    if (name) s.name = name;
    if (config) {
      s.sealed = this.secrets.seal(JSON.stringify(config));
      this.backends.delete(id);
      this.states.delete(id);
    }
    this.save();
    return this.info(s);
  }

  remove(id: string): void {
    this.find(id);
    this.stored = this.stored.filter((s) => s.id !== id);
    this.backends.delete(id);
    this.states.delete(id);
    this.save();
  }

  backend(id: string): ObjectBackend {
    if (id === LOCAL_CONNECTION_ID) return this.local.backend;
    let b = this.backends.get(id);
    if (!b) {
      b = this.makeBackend(this.configOf(this.find(id)));
      this.backends.set(id, b);
    }
    return b;
  }

  /** Records whether a call to a connection worked, and tells the renderer when that changes. */
  report(id: string, error: unknown): void {
    const next = error === undefined ? { state: 'connected' as const, error: null } : { state: 'error' as const, error: (error as Error).message ?? String(error) };
    const prev = this.states.get(id);
    if (prev?.state === next.state && prev.error === next.error) return;
    this.states.set(id, next);
    this.events.emit('state', { id, ...next });
  }
}
