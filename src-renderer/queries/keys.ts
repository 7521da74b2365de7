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
  /** A text preview's first bytes, per stored version (its ETag). */
  previewText: (account: string, container: string, name: string, etag: string) => ['head', account, container, name, 'preview-text', etag] as const,
  /** Usage and quota of an account. */
  accountInfo: (account: string) => ['account-info', account] as const,
  /** Whether a connection works, asked with a request its server authenticates. */
  connectionCheck: (id: string) => ['connection-check', id] as const,
  /** A saved connection's settings without secrets (the edit dialog). */
  connectionSettings: (id: string) => ['connection-settings', id] as const,
  publicUrl: (account: string, container: string) => ['public-url', account, container] as const,
  /** A container's versioning (on, suspended, never on). */
  versioning: (account: string, container: string) => ['versioning', account, container] as const,
  /** A container's lifecycle rules and its tags (S3 bucket settings). */
  lifecycle: (account: string, container: string) => ['container-settings', account, container, 'lifecycle'] as const,
  containerTags: (account: string, container: string) => ['container-settings', account, container, 'tags'] as const,
  localStatus: () => ['local-store', 'status'] as const,
  localUsers: () => ['local-store', 'users'] as const,
};
