import { chmodSync, existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import type { SecretsAtRest } from '../../src-shared/contract/local-store.js';
import { CofferError } from '../../src-shared/errors.js';

/**
 * Where remote credentials rest. Every sealed value starts with the scheme that sealed it, so a
 * file can keep values of an older scheme (or of a keyring that is gone) until they can be
 * resealed, and says why when one cannot be opened:
 *   k1:<key id>:<data>  AES-256-GCM with a key that the OS keyring holds (keyring-box.ts)
 *   e1:<base64>         Electron safeStorage with a real keyring backend (electron/safe-storage.ts)
 *   p1:<base64>         not encrypted: only the file's mode 0600 keeps it private
 *   <base64>            written before schemes existed: plain, or safeStorage in the desktop app
 */
export interface SecretBox {
  /** What the UI may say about the values this box seals. */
  readonly atRest: SecretsAtRest;
  seal(plain: string): string;
  /** Throws a CofferError saying why (never quoting the value) when the value cannot be opened here. */
  open(sealed: string): string;
  /** False for a value sealed another way: the next save reseals it. */
  isCurrent(sealed: string): boolean;
}

const PLAIN = 'p1:';

export function schemeOf(sealed: string): string | undefined {
  return /^([a-z]\d+):/.exec(sealed)?.[1];
}

/** base64 is an encoding, not protection; it only keeps the file free of JSON-looking secrets. */
export function sealPlain(plain: string): string {
  return PLAIN + Buffer.from(plain, 'utf8').toString('base64');
}

/** Opens `p1:` values and those from before schemes; undefined for every other scheme. */
export function openPlain(sealed: string): string | undefined {
  if (sealed.startsWith(PLAIN)) return Buffer.from(sealed.slice(PLAIN.length), 'base64').toString('utf8');
  return schemeOf(sealed) === undefined ? Buffer.from(sealed, 'base64').toString('utf8') : undefined;
}

export const isPlain = (sealed: string): boolean => sealed.startsWith(PLAIN);

/** The error for a value this process cannot open; `why` must never contain the value. */
export function cannotOpen(why: string): CofferError {
  return new CofferError('AccessDenied', `The saved secrets of this connection cannot be read: ${why}.`);
}

export function unknownScheme(sealed: string): CofferError {
  // Any name a newer version may have given its scheme (one without is the plain form of before schemes, opened by openPlain).
  const scheme: string = schemeOf(sealed) ?? '';
  switch (scheme) {
    case 'k1':
      return cannotOpen('they are encrypted with a key in the system keyring, which Coffer does not reach here. Start Coffer where that keyring is available, or remove the connection and add it again');
    case 'e1':
      return cannotOpen('they are encrypted by the desktop app with the system keyring; open them in the desktop app, or remove the connection and add it again');
    default:
      return cannotOpen('they were saved by a newer version of Coffer');
  }
}

/** No keyring: values rest in a file only this user can read, and the UI says they are not encrypted. */
export const fileSecretBox: SecretBox = {
  atRest: 'file',
  seal: sealPlain,
  open(sealed) {
    const plain = openPlain(sealed);
    if (plain === undefined) throw unknownScheme(sealed);
    return plain;
  },
  isCurrent: isPlain,
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
