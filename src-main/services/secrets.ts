import { chmodSync, existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';

/**
 * Where remote credentials rest. The desktop app passes Electron's safeStorage (OS keychain
 * encryption); headless `coffer serve` keeps them in a file only the user can read.
 */
export interface SecretBox {
  /** True when the bytes on disk are encrypted by the OS. */
  readonly encrypted: boolean;
  seal(plain: string): string;
  open(sealed: string): string;
}

export const plainSecretBox: SecretBox = {
  encrypted: false,
  seal: (plain) => Buffer.from(plain, 'utf8').toString('base64'),
  open: (sealed) => Buffer.from(sealed, 'base64').toString('utf8'),
};

/** Writes a file atomically with mode 0600 (it holds sealed secrets). */
export function writePrivateFile(path: string, content: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

export function readTextFile(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}
