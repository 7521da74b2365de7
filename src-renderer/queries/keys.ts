// Query keys, one family per kind of server state, scoped account -> container -> prefix so an
// objects-changed event can invalidate exactly what it touched.
export const queryKeys = {
  connections: () => ['connections'] as const,
  containers: (account: string) => ['containers', account] as const,
  capabilities: (account: string) => ['capabilities', account] as const,
  folders: (account: string, container: string) => ['folder', account, container] as const,
  folder: (account: string, container: string, prefix: string) => ['folder', account, container, prefix] as const,
  heads: (account: string, container: string) => ['head', account, container] as const,
  head: (account: string, container: string, name: string) => ['head', account, container, name] as const,
  versions: (account: string, container: string, name: string) => ['head', account, container, name, 'versions'] as const,
  /** Usage and quota of an account. */
  accountInfo: (account: string) => ['account-info', account] as const,
  localStatus: () => ['local-store', 'status'] as const,
  localUsers: () => ['local-store', 'users'] as const,
};
