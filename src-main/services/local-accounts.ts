import { join } from 'node:path';
import { CofferError } from '../../src-shared/errors.js';
import { localAccountOf, localConnectionId } from '../../src-shared/model/local-connection.js';
import type { ObjectBackend } from '../backends/object-backend.js';
import type { Engine } from '../engine/index.js';
import { readTextFile, writePrivateFile } from './secrets.js';

/** Which local account the app shows, kept next to the store so it survives restarts and port changes. */
const CHOICE_FILE = 'local-account.json';

function readChoice(dir: string): string | null {
  try {
    const value = (JSON.parse(readTextFile(join(dir, CHOICE_FILE)) ?? 'null') as { account?: unknown } | null)?.account;
    return typeof value === 'string' ? value : null;
  } catch {
    // A damaged file only loses the choice: the app shows the first account again.
    return null;
  }
}

/**
 * The embedded store's accounts as connections: `local:<id>` for each, the bare `local` for the
 * first by id (what it named before), and which one the app shows (remembered in the data
 * directory; the first by id until the user picks another, or when the picked one is gone).
 */
export class LocalAccounts {
  private readonly backends = new Map<string, ObjectBackend>();
  private chosen: string | null;

  constructor(
    private readonly engine: Engine,
    private readonly dir: string,
    private readonly makeBackend: (accountId: string) => ObjectBackend,
  ) {
    this.chosen = readChoice(dir);
  }

  private firstId(): string | undefined {
    return this.engine.listAccounts()[0]?.id;
  }

  /** The account a local connection id names (the bare `local`: the first by id). */
  accountOf(connectionId: string): string {
    const named = localAccountOf(connectionId);
    const id = named === null ? this.firstId() : named;
    if (id === undefined || !this.engine.hasAccount(id)) {
      throw new CofferError('NoSuchAccount', id === undefined ? 'The local store has no accounts' : `The local store has no account ${id}`);
    }
    return id;
  }

  backend(connectionId: string): ObjectBackend {
    const id = this.accountOf(connectionId);
    let backend = this.backends.get(id);
    if (!backend) {
      backend = this.makeBackend(id);
      this.backends.set(id, backend);
    }
    return backend;
  }

  /** The account the app shows; undefined only when the store has none. */
  shown(): string | undefined {
    return this.chosen !== null && this.engine.hasAccount(this.chosen) ? this.chosen : this.firstId();
  }

  choose(accountId: string): string {
    this.accountOf(localConnectionId(accountId));
    writePrivateFile(join(this.dir, CHOICE_FILE), JSON.stringify({ account: accountId }));
    this.chosen = accountId;
    return localConnectionId(accountId);
  }

  /** The connection an engine change belongs to: the container's owner (nothing once the container is gone). */
  connectionOf(tenant: string, container: string): string | undefined {
    try {
      return localConnectionId(this.engine.getContainerForRequest({ tenant, container }).owner);
    } catch {
      return undefined;
    }
  }
}
