import type { EventMap, EventName } from '../../src-shared/contract/events.js';
import type { Services } from '../../src-shared/contract/manifest.js';
import type { ObjectBackend } from '../backends/object-backend.js';
import type { Engine } from '../engine/index.js';
import { createAccountsService } from './accounts.js';
import { backendCall } from './backend-call.js';
import { createBrowseService } from './browse.js';
import { createContainersService } from './containers.js';
import { ConnectionRegistry, type BackendFactory } from './connections.js';
import { LocalAccounts } from './local-accounts.js';
import { createLocalStoreService } from './local-store.js';
import { headlessShell, type HostShell } from './host-shell.js';
import type { SecretBox } from './secrets.js';
import { TransferService } from './transfers/service.js';
import { createVersionsService } from './versions.js';

export interface ServiceDeps {
  engine: Engine;
  dataDir: string;
  /** The embedded server's base URL, once it listens. */
  url: () => string;
  /** The backend of one local account (the composition root builds it with the server's URL). */
  localBackend: (accountId: string) => ObjectBackend;
  makeBackend: BackendFactory;
  secrets: SecretBox;
  /** Native dialogs of the desktop shell (headless: NotSupported). */
  shell?: HostShell;
  emit: <E extends EventName>(event: E, payload: EventMap[E]) => void;
}

export interface AppServices {
  services: Services;
  transfers: TransferService;
  registry: ConnectionRegistry;
  localAccounts: LocalAccounts;
}

/** Builds every service of the contract over one set of dependencies (the composition root calls this). */
export function createServices(d: ServiceDeps): AppServices {
  const localAccounts = new LocalAccounts(d.engine, d.dataDir, d.localBackend);
  const registry = new ConnectionRegistry(d.dataDir, d.secrets, { accounts: localAccounts, name: 'Local store', endpoint: d.url() }, d.makeBackend);
  registry.events.on('state', (s) => d.emit('connection.state', s));
  const emit = d.emit as (event: EventName, payload: unknown) => void;
  const transfers = new TransferService(registry, d.emit, d.dataDir);
  return {
    registry,
    localAccounts,
    transfers,
    services: {
      accounts: createAccountsService(registry, d.makeBackend),
      browse: createBrowseService(registry, emit),
      containers: createContainersService(backendCall(registry)),
      versions: createVersionsService(backendCall(registry), emit),
      transfers,
      localStore: createLocalStoreService({ engine: d.engine, dataDir: d.dataDir, url: d.url, secretsAtRest: d.secrets.atRest, accounts: localAccounts }),
      shell: d.shell ?? headlessShell,
    },
  };
}
