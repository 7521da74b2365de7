// The desktop app's secret box over Electron safeStorage (mocked: no Electron binary here). On
// Linux, Chromium's `basic_text` backend encrypts with a password in its own source, so the box
// must say secrets are not encrypted, and keep them as the file box does.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const storage = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret' as string,
}));

vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => storage.available,
    getSelectedStorageBackend: () => storage.backend,
    // Stands in for OSCrypt: a 'v11' header and the bytes reversed.
    encryptString: (plain: string) => Buffer.concat([Buffer.from('v11'), Buffer.from(plain).reverse()]),
    decryptString: (bytes: Buffer) => {
      if (bytes.subarray(0, 3).toString() !== 'v11') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(bytes.subarray(3)).reverse().toString();
    },
  },
}));

const { safeStorageBox } = await import('../../src-main/electron/safe-storage.js');

const CONFIG = JSON.stringify({ kind: 's3', secretAccessKey: 'very-secret' });

beforeEach(() => {
  storage.available = true;
  storage.backend = 'gnome_libsecret';
});

describe('the desktop secret box', () => {
  it('with a real keyring backend: says encrypted, seals with safeStorage, round-trips', () => {
    const box = safeStorageBox('linux');
    expect(box.atRest).toBe('keyring');
    const sealed = box.seal(CONFIG);
    expect(sealed).toMatch(/^e1:/);
    expect(Buffer.from(sealed.slice(3), 'base64').toString()).not.toContain('very-secret');
    expect(box.open(sealed)).toBe(CONFIG);
    expect(box.isCurrent(sealed)).toBe(true);
  });

  it.each(['basic_text', 'unknown'])('with the %s backend on Linux: says not encrypted and keeps values as the file box does', (backend) => {
    storage.backend = backend;
    const box = safeStorageBox('linux');
    expect(box.atRest).toBe('file');
    const sealed = box.seal(CONFIG);
    expect(sealed).toMatch(/^p1:/);
    expect(box.open(sealed)).toBe(CONFIG);
  });

  it('where safeStorage is unavailable: says not encrypted', () => {
    storage.available = false;
    expect(safeStorageBox('darwin').atRest).toBe('file');
  });

  it('opens values written before schemes, sealed by safeStorage or in plain base64, and marks them for resealing', () => {
    const box = safeStorageBox('linux');
    const encrypted = Buffer.concat([Buffer.from('v11'), Buffer.from(CONFIG).reverse()]).toString('base64');
    const plain = Buffer.from(CONFIG).toString('base64');
    expect(box.open(encrypted)).toBe(CONFIG);
    expect(box.open(plain)).toBe(CONFIG);
    expect(box.isCurrent(encrypted)).toBe(false);
    expect(box.isCurrent(plain)).toBe(false);
  });

  it('gives a clear error, not a crash, for a sealed value it can no longer open', () => {
    const sealed = safeStorageBox('linux').seal(CONFIG);
    storage.available = false;
    expect(() => safeStorageBox('linux').open(sealed)).toThrow(/cannot be read: the system keyring that encrypted them is not available/);
    storage.available = true;
    expect(() => safeStorageBox('linux').open(`e1:${Buffer.from('v10garbage').toString('base64')}`)).toThrow(/could not decrypt them/);
  });
});
