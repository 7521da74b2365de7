// Every user-facing text of the renderer, in one place, ready for translation: a translation is
// another object of the same shape (`Strings`). Components never spell out text themselves.
import type { ConnectionState } from '../../src-shared/model/connections';

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

  containers: {
    title: 'Containers',
    tableLabel: 'Containers',
    name: 'Name',
    objects: 'Objects',
    size: 'Size',
    created: 'Created',
    actions: 'Actions',
    create: 'New container',
    open: (name: string) => `Open ${name}`,
    delete: (name: string) => `Delete container ${name}`,
    empty: 'No containers yet',
    emptyBody: 'Create a container to start storing objects.',
    loading: 'Loading containers…',
    createDialog: {
      title: 'New container',
      nameLabel: 'Container name',
      nameHint: 'Lower-case letters, digits, dots and hyphens work with every client.',
      submit: 'Create',
      busy: 'Creating…',
      required: 'Enter a name.',
    },
    deleteDialog: {
      title: 'Delete container',
      body: (name: string) => `Delete the container “${name}”? This cannot be undone.`,
      submit: 'Delete',
      busy: 'Deleting…',
    },
    summary: (count: string) => `${count} containers`,
  },

  browser: {
    breadcrumbs: 'Location',
    root: 'Containers',
    gridLabel: (where: string) => `Contents of ${where}`,
    name: 'Name',
    size: 'Size',
    type: 'Type',
    modified: 'Last modified',
    folderType: 'Folder',
    filterLabel: 'Filter by name prefix',
    filterPlaceholder: 'Name starts with…',
    loading: 'Loading folder…',
    loadingMore: 'Loading more…',
    emptyFolder: 'This folder is empty',
    emptyContainer: 'This container is empty',
    noMatch: (filter: string) => `Nothing here starts with “${filter}”`,
    itemsAll: (count: string) => `${count} items`,
    itemsPartial: (count: string) => `${count} items loaded, more as you scroll`,
    sortedWithinLoaded: (count: string) => `Sorted within the ${count} items loaded so far; scroll to load the rest.`,
    sortBy: (column: string) => `Sort by ${column}`,
    selected: (count: string) => `${count} selected`,
  },

  details: {
    title: 'Details',
    properties: 'Properties',
    nothing: 'Select an item to see its details.',
    folder: 'Folder',
    many: (count: string) => `${count} items selected`,
    totalSize: 'Total size of selected objects',
    foldersIncluded: (count: string) => `Includes ${count} folders (size not counted).`,
    name: 'Name',
    size: 'Size',
    etag: 'ETag',
    contentType: 'Content type',
    modified: 'Last modified',
    versionId: 'Version ID',
    storageClass: 'Storage class',
    publicRead: 'Public',
    metadata: 'Metadata',
    noMetadata: 'No user metadata',
    metaKey: 'Key',
    metaValue: 'Value',
    loading: 'Loading details…',
    bytesExact: (n: string) => `${n} bytes`,
    headerNames: {
      contentEncoding: 'Content-Encoding',
      contentDisposition: 'Content-Disposition',
      contentLanguage: 'Content-Language',
      cacheControl: 'Cache-Control',
      expires: 'Expires',
    },
  },

  local: {
    title: 'Endpoints and keys',
    intro: 'Other tools can use the same data as this app: point them at these endpoints with these credentials.',
    endpoints: 'Endpoints',
    s3Endpoint: 'Compatible (S3) endpoint',
    nativeAuthUrl: 'Native (Swift) auth URL',
    storageUrl: 'Native (Swift) storage URL',
    dataDir: 'Data directory',
    user: (name: string) => `User ${name}`,
    accessKey: 'Access key',
    secretKey: 'Secret key',
    swiftUser: 'Swift user',
    swiftKey: 'Swift key',
    commands: 'Command lines',
    commandLine: (tool: string) => `${tool} command line`,
    awsCommand: 'aws',
    rcloneCommand: 'rclone',
    swiftCommand: 'swift',
    copy: (what: string) => `Copy ${what}`,
    copied: (what: string) => `${what} copied`,
    copyFailed: 'Could not copy to the clipboard',
    showSecrets: 'Show secrets',
    hidden: '••••••••',
    noUsers: 'The local store has no users yet.',
    loading: 'Loading endpoints…',
    usage: (objects: string, bytes: string) => `${objects} objects, ${bytes}`,
  },

  status: {
    connection: (name: string, state: string) => `${name}: ${state}`,
    fetching: 'Updating…',
  },

  units: {
    bytes: ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const,
  },
};

export type Strings = typeof en;

/** The active language; one place to switch when translations exist. */
export const strings: Strings = en;
