// Where a preview reads an object's bytes. The browser build: the server's own download address,
// inline (same session cookie). The desktop app: the coffer-object: scheme main answers (no bytes
// over IPC). Both serve byte ranges, so media seek and a text preview reads only its start.
export function previewUrl(account: string, container: string, name: string): string {
  const query = new URLSearchParams({ account, container, name }).toString();
  return window.coffer ? `coffer-object://object/?${query}` : `/_coffer/download?${query}&inline=1`;
}
