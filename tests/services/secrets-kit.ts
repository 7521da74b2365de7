// What the secret-box tests share: a connection with a recognisable secret, a registry over a
// temp directory that hands back the config a backend would get, and checks of what the file holds.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ConnectionConfig } from '../../src-shared/model/connections.js';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import type { KeyStore } from '../../src-main/services/keyring-box.js';
import { ConnectionRegistry } from '../../src-main/services/connections.js';
import type { SecretBox } from '../../src-main/services/secrets.js';

export const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
export const ENDPOINT = 'https://s3.example.test';
export const CONFIG: ConnectionConfig = {
  kind: 's3',
  endpoint: ENDPOINT,
  region: 'us-east-1',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: SECRET,
  forcePathStyle: true,
};

export const connectionsFile = (dir: string) => join(dir, 'connections.json');
export const storedIn = (dir: string) => JSON.parse(readFileSync(connectionsFile(dir), 'utf8')) as { id: string; sealed: string }[];

/** A connections.json as versions before sealing schemes wrote it: the config in bare base64. */
export function writeLegacyFile(dir: string, id = 'legacy-1'): void {
  const sealed = Buffer.from(JSON.stringify(CONFIG)).toString('base64');
  writeFileSync(connectionsFile(dir), JSON.stringify([{ id, name: 'old one', sealed }]), { mode: 0o600 });
}

/** The registry, with the config each backend was made from (what the secrets opened to). */
export function registryOver(dir: string, box: SecretBox) {
  const made: ConnectionConfig[] = [];
  const local = { accounts: { backend: () => ({}) as ObjectBackend, shown: () => 'coffer$admin' }, name: 'Local store', endpoint: 'http://127.0.0.1:1' };
  const registry = new ConnectionRegistry(dir, box, local, (config) => {
    made.push(config);
    return {} as ObjectBackend;
  });
  return { registry, made };
}

/** The secret appears nowhere in the file: not in clear, nor in any base64 or base64url part of a value. */
export function expectSecretHidden(dir: string): void {
  const text = readFileSync(connectionsFile(dir), 'utf8');
  expect(text).not.toContain(SECRET);
  for (const { sealed } of storedIn(dir)) {
    for (const part of sealed.split(':')) {
      expect(Buffer.from(part, 'base64').toString('latin1')).not.toContain(SECRET);
      expect(Buffer.from(part, 'base64url').toString('latin1')).not.toContain(SECRET);
    }
  }
}

/** An in-memory keyring; `forgetful` accepts keys and keeps none. */
export function memoryKeyring(opts: { forgetful?: boolean } = {}) {
  const entries = new Map<string, Buffer>();
  const store: KeyStore = {
    get: async (account) => entries.get(account),
    set: async (account, key) => {
      if (!opts.forgetful) entries.set(account, Buffer.from(key));
    },
  };
  return { entries, load: async () => store };
}

export const noKeyring = async (): Promise<KeyStore> => {
  throw new Error('no Secret Service on the session bus');
};
