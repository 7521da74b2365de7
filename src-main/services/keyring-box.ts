import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SecretsAtRest } from '../../src-shared/contract/local-store.js';
import { storedSecrets } from './connections.js';
import { cannotOpen, fileSecretBox, sealPlain, isPlain, type SecretBox } from './secrets.js';

/** The OS keyring as this module uses it: one 32-byte key per entry. */
export interface KeyStore {
  /** undefined when the keyring has no such entry; throws when the keyring cannot be reached. */
  get(account: string): Promise<Buffer | undefined>;
  set(account: string, key: Buffer): Promise<void>;
}

const SERVICE = 'Coffer';
const PREFIX = 'k1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A keyring that waits for an unlock prompt nobody answers must not hold up the server's start. */
const KEYRING_TIMEOUT_MS = 20_000;

const accountOf = (keyId: string) => `connections key ${keyId}`;

/** The Secret Service (Linux), Keychain (macOS) or Credential Manager (Windows), through @napi-rs/keyring. */
export async function systemKeyStore(): Promise<KeyStore> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  // Pinned to the Secret Service: on Linux the library otherwise falls back to the kernel keyring,
  // which forgets its keys at logout or reboot and would leave connections.json unreadable.
  const entry = (account: string) => new AsyncEntry(SERVICE, account, { linux: { store: 'secret-service' } });
  return {
    async get(account) {
      const bytes = await entry(account).getSecret();
      return bytes ? Buffer.from(bytes) : undefined;
    },
    set: (account, key) => entry(account).setSecret(key),
  };
}

function timed<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${KEYRING_TIMEOUT_MS / 1000} s`)), KEYRING_TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

type KeyState = { key: Buffer } | { problem: string };

export interface KeyringBox {
  box: SecretBox;
  /** One line for the server's output, naming no secret. */
  note: string;
}

/**
 * The secret box of `coffer serve`: a random key per data directory, kept in the OS keyring,
 * encrypts each value (AES-256-GCM, bound to its key id). The keys that the values already in
 * connections.json name are read once here. Where no keyring answers, new values go to the file
 * unencrypted (mode 0600) and the box says so; values it cannot open stay as they are.
 */
export async function keyringSecretBox(dataDir: string, loadStore: () => Promise<KeyStore> = systemKeyStore): Promise<KeyringBox> {
  const keys = new Map<string, KeyState>();
  let store: KeyStore | undefined;
  let unreachable: string | undefined;
  try {
    store = await timed(loadStore());
  } catch (err) {
    unreachable = reasonOf(err);
  }
  for (const value of storedSecrets(dataDir)) {
    const keyId = value.startsWith(PREFIX) ? value.split(':')[1] : undefined;
    if (keyId === undefined || keys.has(keyId)) continue;
    try {
      if (!store || unreachable) throw new Error(unreachable);
      const key = await timed(store.get(accountOf(keyId)));
      keys.set(keyId, key?.length === 32 ? { key } : { problem: 'their key is no longer in the system keyring. Remove the connection and add it again' });
    } catch (err) {
      unreachable = reasonOf(err);
      keys.set(keyId, { problem: `they are encrypted with a key in the system keyring, which cannot be reached (${unreachable}). Start Coffer where that keyring is available, or remove the connection and add it again` });
    }
  }
  let current = [...keys].map(([keyId, s]) => ('key' in s ? { keyId, key: s.key } : undefined)).find((k) => k !== undefined);
  if (!current && store && !unreachable) {
    try {
      current = await keyFor(store, dataDir, keys);
      keys.set(current.keyId, { key: current.key });
    } catch (err) {
      unreachable = reasonOf(err);
    }
  }
  const note = current
    ? 'Secrets of remote connections: encrypted with a key in the system keyring'
    : `Secrets of remote connections: kept in connections.json, readable only by this user, not encrypted (no system keyring: ${unreachable})`;
  return { box: new KeyringSecretBox(keys, current), note };
}

/**
 * The key for new values. Its id comes from the data directory's path, so a start before any
 * connection is saved finds the key the previous one made instead of adding one more to the
 * keyring; values carry their key id, so a moved directory still opens.
 */
async function keyFor(store: KeyStore, dataDir: string, named: Map<string, KeyState>): Promise<{ keyId: string; key: Buffer }> {
  const fromPath = createHash('sha256').update(realpathOr(dataDir)).digest('base64url').slice(0, 16);
  // An id the file names but whose key is gone gets no new key: its values must keep saying why they fail.
  const keyId = named.has(fromPath) ? randomBytes(12).toString('base64url') : fromPath;
  const existing = await timed(store.get(accountOf(keyId)));
  if (existing?.length === 32) return { keyId, key: existing };
  const key = randomBytes(32);
  await timed(store.set(accountOf(keyId), key));
  // Only a key read back is trusted: a keyring that accepts it and forgets it would lose every secret.
  const back = await timed(store.get(accountOf(keyId)));
  if (!back?.equals(key)) throw new Error('the system keyring did not keep the key it was given');
  return { keyId, key };
}

function realpathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

class KeyringSecretBox implements SecretBox {
  readonly atRest: SecretsAtRest;

  constructor(
    private readonly keys: Map<string, KeyState>,
    private readonly current: { keyId: string; key: Buffer } | undefined,
  ) {
    this.atRest = current ? 'keyring' : 'file';
  }

  seal(plain: string): string {
    if (!this.current) return sealPlain(plain);
    const { keyId, key } = this.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(PREFIX + keyId));
    const body = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${keyId}:${body.toString('base64url')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) return fileSecretBox.open(sealed);
    const [, keyId = '', data = ''] = sealed.split(':');
    const state = this.keys.get(keyId) ?? { problem: 'their key is not in the system keyring' };
    if ('problem' in state) throw cannotOpen(state.problem);
    const body = Buffer.from(data, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', state.key, body.subarray(0, IV_BYTES)).setAAD(Buffer.from(PREFIX + keyId));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw cannotOpen('they do not match their key in the system keyring (connections.json or the key was changed)');
    }
  }

  isCurrent(sealed: string): boolean {
    return this.current ? sealed.startsWith(`${PREFIX}${this.current.keyId}:`) : isPlain(sealed);
  }
}
