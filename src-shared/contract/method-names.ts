/**
 * The contract's method names as plain data, for the renderer and the preload: they need the
 * allow-list, not the schemas (which would pull the validation library into their bundles).
 * A test checks this list against the schemas in manifest.ts.
 */
export const METHODS_BY_SERVICE = {
  accounts: ['list', 'add', 'update', 'remove', 'test', 'info', 'settings', 'check'],
  browse: [
    'capabilities',
    'listContainers',
    'createContainer',
    'deleteContainer',
    'listFolder',
    'head',
    'setMetadata',
    'createFolder',
    'delete',
    'copy',
    'move',
    'paste',
    'setPublic',
    'publicUrl',
    'shareLink',
    'listVersions',
    'restoreVersion',
    'deleteVersion',
    'countUnder',
  ],
  containers: ['lifecycle', 'setLifecycle', 'tags', 'setTags'],
  versions: ['status', 'set', 'undelete', 'planRestore', 'restoreTo'],
  transfers: [
    'planUpload',
    'startUpload',
    'download',
    'downloadToPath',
    'stageForDrag',
    'list',
    'pause',
    'resume',
    'cancel',
    'retry',
    'clearFinished',
    'setConcurrency',
    'listUnfinished',
    'abortUnfinished',
  ],
  localStore: ['status', 'users', 'createAccount', 'addKey', 'chooseAccount', 'setQuota'],
  shell: ['pickPaths', 'pickSavePath', 'pickFolder', 'startDrag'],
} as const;

export const METHOD_NAMES: readonly string[] = Object.entries(METHODS_BY_SERVICE).flatMap(([service, methods]) =>
  methods.map((m) => `${service}.${m}`),
);
