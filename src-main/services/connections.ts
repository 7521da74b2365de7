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
  /** Not secret, kept in clear so that a connection whose secrets cannot be opened still lists (older files lack them). */
  kind?: 'swift' | 's3';
  endpoint?: string;
  /** The whole config, sealed: it holds keys and passwords. */
  sealed: string;
}

const FILE = 'connections.json';

function readStored(dir: string): Stored[] {
  const path = join(dir, FILE);
  try {
    return JSON.parse(readTextFile(path) ?? '[]') as Stored[];
  } catch {
    // Not the parser's message: it can quote the file, secrets included.
    throw new CofferError('InternalError', `${path} is damaged (not JSON); move it away to start without remote connections.`);
  }
}

/** The sealed values in a data directory's connections.json (the keyring box reads their key ids before the registry opens). */
export function storedSecrets(dir: string): string[] {
  return readStored(dir).map((s) => s.sealed);
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
    this.file = join(dir, FILE);
    this.stored = readStored(dir);
    this.states.set(LOCAL_CONNECTION_ID, { state: 'connected', error: null });
  }

  /** Reseals, on the way, every value sealed another way (older files, base64) that can be opened; the others stay as they are. */
  private save(): void {
    for (const s of this.stored) {
      if (this.secrets.isCurrent(s.sealed)) continue;
      try {
        Object.assign(s, this.sealedFields(this.configOf(s)));
      } catch {
        // Kept sealed as it was: its keyring may answer again, and the connection says why it fails meanwhile.
      }
    }
    writePrivateFile(this.file, JSON.stringify(this.stored, null, 2));
  }

  private sealedFields(config: ConnectionConfig): Pick<Stored, 'kind' | 'endpoint' | 'sealed'> {
    return { kind: config.kind, endpoint: endpointOf(config), sealed: this.secrets.seal(JSON.stringify(config)) };
  }

  private configOf(s: Stored): ConnectionConfig {
    const plain = this.secrets.open(s.sealed);
    try {
      return connectionConfigSchema.parse(JSON.parse(plain));
    } catch {
      // Not the parser's message: it can quote the text, secrets included.
      throw new CofferError('InternalError', `The saved settings of connection ${s.name} are damaged; remove it and add it again.`);
    }
  }

  list(): ConnectionInfo[] {
    const local: ConnectionInfo = { id: LOCAL_CONNECTION_ID, kind: 'local', name: this.local.name, endpoint: this.local.endpoint, state: 'connected', error: null };
    return [local, ...this.stored.map((s) => this.info(s))];
  }

  /** A connection whose secrets cannot be opened is listed with the reason as its error, not dropped. */
  private info(s: Stored): ConnectionInfo {
    try {
      const config = this.configOf(s);
      const st = this.states.get(s.id) ?? { state: 'unknown' as const, error: null };
      return { id: s.id, kind: config.kind, name: s.name, endpoint: endpointOf(config), ...st };
    } catch (err) {
      return { id: s.id, kind: s.kind ?? 's3', name: s.name, endpoint: s.endpoint ?? '', state: 'error', error: (err as Error).message };
    }
  }

  private find(id: string): Stored {
    const s = this.stored.find((x) => x.id === id);
    if (!s) throw new CofferError('NoSuchAccount', `No connection ${id}`);
    return s;
  }

  add(name: string, config: ConnectionConfig): ConnectionInfo {
    const s: Stored = { id: randomUUID(), name, ...this.sealedFields(config) };
    this.stored.push(s);
    this.save();
    return this.info(s);
  }

  update(id: string, name: string | undefined, config: ConnectionConfig | undefined): ConnectionInfo {
    const s = this.find(id);
    if (name) s.name = name;
    if (config) {
      Object.assign(s, this.sealedFields(config));
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
