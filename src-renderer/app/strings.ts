// Every user-facing text of the renderer, in one place, ready for translation: a translation is
// another object of the same shape (`Strings`). Components never spell out text themselves.
// The larger parts live in strings/ (browser, accounts, transfers) and are spread in here.
import type { ConnectionState } from '../../src-shared/model/connections';
import { accountTexts } from './strings/accounts';
import { browseTexts } from './strings/browse';
import { containerTexts } from './strings/containers';
import { containerDetailsTexts } from './strings/container-details';
import { folderViewTexts } from './strings/folder-view';
import { previewTexts } from './strings/preview';
import { transferTexts } from './strings/transfers';
import { versionTexts } from './strings/versions';

const en = {
  appName: 'Coffer',

  shell: {
    connections: 'Connections',
    main: 'Main area',
    sidebar: 'Sidebar',
    statusBar: 'Status bar',
    localStoreName: 'Local store',
    connectionState: { connected: 'Connected', error: 'Connection error', unknown: 'Not checked yet' } satisfies Record<ConnectionState, string>,
    loadingConnections: 'Loading connections…',
  },

  tabs: {
    label: 'Local store views',
    containers: 'Containers',
    endpoints: 'Endpoints and keys',
  },

  common: {
    retry: 'Retry',
    cancel: 'Cancel',
    close: 'Close',
    unknown: 'unknown',
    none: 'none',
    yes: 'Yes',
    no: 'No',
  },

  errors: {
    unreachableTitle: 'Cannot reach the Coffer server',
    unreachableBody: 'The server did not answer. It may have stopped or the network is down.',
    sessionTitle: 'Your session has expired',
    sessionBody: 'The server no longer accepts this session. Open the link printed by “coffer serve --ui” again, or sign in again, then retry.',
    credentialsTitle: 'The server refused the credentials',
    credentialsBody: 'This connection’s user, key or token was not accepted. Check the connection’s settings, then retry.',
    genericTitle: 'Something went wrong',
    detail: (message: string) => `Details: ${message}`,
    containerNotEmpty: (name: string) => `The container “${name}” is not empty. Delete its objects first, then delete the container.`,
    containerExists: (name: string) => `A container named “${name}” already exists.`,
    invalidContainerName: (message: string) => `This name cannot be used: ${message}`,
  },

  ...browseTexts,
  ...containerDetailsTexts,
  ...folderViewTexts,
  ...previewTexts,
  status: {
    connection: (name: string, state: string) => `${name}: ${state}`,
    fetching: 'Updating…',
  },

  units: {
    bytes: ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const,
  },

  ...accountTexts,
  ...containerTexts,
  ...transferTexts,
  ...versionTexts,
};

export type Strings = typeof en;

/** The active language; one place to switch when translations exist. */
export const strings: Strings = en;
