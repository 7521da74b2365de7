import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { CofferError } from '../../src-shared/errors.js';
import { keepSecrets, withoutSecrets, type ConnectionSettings } from '../../src-shared/model/connection-secrets.js';
import { connectionConfigSchema, LOCAL_CONNECTION_ID, type ConnectionConfig, type ConnectionEdit, type ConnectionInfo, type ConnectionState } from '../../src-shared/model/connections.js';
import { isLocalConnection, localConnectionId } from '../../src-shared/model/local-connection.js';
import type { ObjectBackend } from '../backends/object-backend.js';
import { readTextFile, writePrivateFile, type SecretBox } from './secrets.js';

export type BackendFactory = (config: ConnectionConfig) => ObjectBackend;

/** The embedded store's accounts, one connection each (local-accounts.ts). */
export interface LocalConnections {
  backend(connectionId: string): ObjectBackend;
  /** The account the app shows; undefined when the store has none. */
  shown(): string | undefined;
}

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

/** Secret fields in words, for an edit that left one empty where the saved one cannot serve. */
const SECRET_LABELS: Record<string, string> = { secretAccessKey: 'secret key', key: 'key', password: 'password', secret: 'application credential secret', token: 'token' };

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
  /** Checks under way, so a burst of failures asks the server once. */
  private readonly checking = new Map<string, Promise<void>>();

  constructor(
    dir: string,
    private readonly secrets: SecretBox,
    private readonly local: { accounts: LocalConnections; name: string; endpoint: string },
    private readonly makeBackend: BackendFactory,
  ) {
    this.file = join(dir, FILE);
    this.stored = readStored(dir);
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

  /** The local store first (the account the app shows), then the remote connections. */
  list(): ConnectionInfo[] {
    return [this.localInfo(), ...this.stored.map((s) => this.info(s))];
  }

  private localInfo(): ConnectionInfo {
    const { name, endpoint } = this.local;
    const account = this.local.accounts.shown();
    if (account === undefined) return { id: LOCAL_CONNECTION_ID, kind: 'local', name, endpoint, state: 'error', error: 'The local store has no accounts' };
    return { id: localConnectionId(account), kind: 'local', name, endpoint, state: 'connected', error: null, account };
  }

  /** Whether a connection last worked: local ones always do; a remote one is 'unknown' until checked. */
  stateOf(id: string): { state: ConnectionState; error: string | null } {
    if (isLocalConnection(id)) return { state: 'connected', error: null };
    this.find(id);
    return this.states.get(id) ?? { state: 'unknown', error: null };
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

  /** A saved connection's settings, secrets left out. */
  settings(id: string): ConnectionSettings {
    return withoutSecrets(this.configOf(this.find(id)));
  }

  /** Edited settings with the secrets left empty taken from the saved connection. */
  completed(id: string, edit: ConnectionEdit): ConnectionConfig {
    const whole = connectionConfigSchema.safeParse(edit);
    if (whole.success) return whole.data;
    const kept = keepSecrets(edit, this.configOf(this.find(id)));
    if ('missing' in kept) throw new CofferError('InvalidArgument', `The new settings need their own ${SECRET_LABELS[kept.missing] ?? kept.missing}: the saved one belongs to another kind of sign-in.`);
    return connectionConfigSchema.parse(kept.config);
  }

  update(id: string, name: string | undefined, edit: ConnectionEdit | undefined): ConnectionInfo {
    const s = this.find(id);
    const config = edit && this.completed(id, edit);
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
    if (isLocalConnection(id)) return this.local.accounts.backend(id);
    let b = this.backends.get(id);
    if (!b) {
      b = this.makeBackend(this.configOf(this.find(id)));
      this.backends.set(id, b);
    }
    return b;
  }

  /**
   * Asks the server with a request it must authenticate and records the outcome; a check already
   * under way is shared. The local store needs none.
   */
  async check(id: string): Promise<{ id: string; state: ConnectionState; error: string | null }> {
    if (!isLocalConnection(id)) {
      let running = this.checking.get(id);
      if (!running) {
        running = Promise.resolve()
          .then(() => this.backend(id).checkAccess())
          .then(
            () => this.report(id, undefined),
            (err: unknown) => this.report(id, err),
          )
          .finally(() => this.checking.delete(id));
        this.checking.set(id, running);
      }
      await running;
    }
    return { id, ...this.stateOf(id) };
  }

  /** Records whether a call to a remote connection worked, and tells the renderer when that changes. */
  report(id: string, error: unknown): void {
    if (isLocalConnection(id) || !this.stored.some((s) => s.id === id)) return;
    const next = error === undefined ? { state: 'connected' as const, error: null } : { state: 'error' as const, error: (error as Error).message ?? String(error) };
    const prev = this.states.get(id);
    if (prev?.state === next.state && prev.error === next.error) return;
    this.states.set(id, next);
    this.events.emit('state', { id, ...next });
  }
}
