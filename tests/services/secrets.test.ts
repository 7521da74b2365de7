// How connections.json keeps remote secrets: encrypted with a key from the (here in-memory)
// keyring, or, with no keyring, in a 0600 file that the box admits is not encrypted; older base64
// files open and are resealed on the next save; values a box cannot open stay and say why.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCofferError } from '../../src-shared/errors.js';
import { keyringSecretBox } from '../../src-main/services/keyring-box.js';
import { fileSecretBox } from '../../src-main/services/secrets.js';
import { CONFIG, ENDPOINT, SECRET, connectionsFile, expectSecretHidden, memoryKeyring, noKeyring, registryOver, storedIn, writeLegacyFile } from './secrets-kit.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('with no keyring (the file box)', () => {
  it('says the secrets are not encrypted, and indeed they are only base64 in a file only the user can read', () => {
    const { registry, made } = registryOver(dir, fileSecretBox);
    expect(fileSecretBox.atRest).toBe('file');
    const added = registry.add('plain', CONFIG);
    expect(modeOf(connectionsFile(dir))).toBe(0o600);
    const [stored] = storedIn(dir);
    expect(stored!.sealed).toMatch(/^p1:/);
    // Honest means recoverable by anyone who can read the file: the UI must not claim more.
    expect(Buffer.from(stored!.sealed.slice(3), 'base64').toString()).toContain(SECRET);
    registry.backend(added.id);
    expect(made).toEqual([CONFIG]);
  });

  it('opens a base64 connections.json from before sealing schemes and rewrites it with p1: on the next save', () => {
    writeLegacyFile(dir);
    const { registry, made } = registryOver(dir, fileSecretBox);
    expect(registry.list()[1]).toMatchObject({ id: 'legacy-1', kind: 's3', endpoint: ENDPOINT, state: 'unknown' });
    registry.backend('legacy-1');
    expect(made).toEqual([CONFIG]);
    registry.add('new one', CONFIG);
    expect(storedIn(dir).map((s) => s.sealed.slice(0, 3))).toEqual(['p1:', 'p1:']);
  });

  it('never quotes damaged settings or a damaged file in its errors (they hold the secret)', () => {
    const sealed = `p1:${Buffer.from(JSON.stringify(CONFIG).slice(0, -2)).toString('base64')}`;
    writeFileSync(connectionsFile(dir), JSON.stringify([{ id: 'x', name: 'broken', sealed }]));
    const { registry } = registryOver(dir, fileSecretBox);
    const info = registry.list()[1]!;
    expect(info).toMatchObject({ state: 'error', error: expect.stringMatching(/damaged/) });
    expect(info.error).not.toContain(SECRET);
    writeFileSync(connectionsFile(dir), `[{"sealed": "${SECRET}"`);
    expect(() => registryOver(dir, fileSecretBox)).toThrow(/connections\.json is damaged \(not JSON\)/);
    expect(() => registryOver(dir, fileSecretBox)).not.toThrow(SECRET);
  });
});

describe('with a keyring (the keyring box)', () => {
  it('encrypts each value with a key kept in the keyring: round trip, mode 0600, the secret neither in clear nor in base64', async () => {
    const keyring = memoryKeyring();
    const { box, note } = await keyringSecretBox(dir, keyring.load);
    expect(box.atRest).toBe('keyring');
    expect(note).toMatch(/encrypted with a key in the system keyring/);
    expect(note).not.toContain(SECRET);
    expect([...keyring.entries.values()].map((k) => k.length)).toEqual([32]);
    const { registry, made } = registryOver(dir, box);
    const added = registry.add('sealed', CONFIG);
    registry.add('sealed too', CONFIG);
    expect(modeOf(connectionsFile(dir))).toBe(0o600);
    const [a, b] = storedIn(dir);
    expect(a!.sealed).toMatch(/^k1:[\w-]+:[\w-]+$/);
    expect(a!.sealed).not.toBe(b!.sealed); // a fresh IV per value
    expectSecretHidden(dir);
    registry.backend(added.id);
    expect(made).toEqual([CONFIG]);
  });

  it('a later start opens what an earlier one sealed with the same key, and adds no key of its own', async () => {
    const keyring = memoryKeyring();
    // Two starts before anything is saved: the second finds the first one's key.
    await keyringSecretBox(dir, keyring.load);
    const first = await keyringSecretBox(dir, keyring.load);
    const { id } = registryOver(dir, first.box).registry.add('kept', CONFIG);
    const later = registryOver(dir, (await keyringSecretBox(dir, keyring.load)).box);
    later.registry.backend(id);
    expect(later.made).toEqual([CONFIG]);
    expect(keyring.entries.size).toBe(1);
  });

  it('opens a base64 file from before, and seals it with the key on the next save', async () => {
    writeLegacyFile(dir);
    const before = readFileSync(connectionsFile(dir), 'utf8');
    const { registry, made } = registryOver(dir, (await keyringSecretBox(dir, memoryKeyring().load)).box);
    registry.backend('legacy-1');
    expect(made).toEqual([CONFIG]);
    expect(readFileSync(connectionsFile(dir), 'utf8')).toBe(before); // opening writes nothing
    registry.add('new one', CONFIG);
    expect(storedIn(dir).map((s) => s.sealed.slice(0, 3))).toEqual(['k1:', 'k1:']);
    expectSecretHidden(dir);
  });

  it('when the keyring is gone: says secrets now go to the file unencrypted, each sealed connection says why it fails, and nothing is lost', async () => {
    const { id } = registryOver(dir, (await keyringSecretBox(dir, memoryKeyring().load)).box).registry.add('sealed', CONFIG);
    const sealedBefore = storedIn(dir)[0]!.sealed;
    const { box, note } = await keyringSecretBox(dir, noKeyring);
    expect(box.atRest).toBe('file');
    expect(note).toMatch(/not encrypted \(no system keyring: no Secret Service on the session bus\)/);
    const { registry } = registryOver(dir, box);
    const info = registry.list().find((c) => c.id === id)!;
    expect(info).toMatchObject({ kind: 's3', endpoint: ENDPOINT, state: 'error' });
    expect(info.error).toMatch(/cannot be read: .*system keyring, which cannot be reached/);
    let thrown: unknown;
    try {
      registry.backend(id);
    } catch (err) {
      thrown = err;
    }
    expect(isCofferError(thrown, 'AccessDenied')).toBe(true);
    registry.add('while it is gone', CONFIG);
    const [kept, added] = storedIn(dir);
    expect(kept!.sealed).toBe(sealedBefore);
    expect(added!.sealed).toMatch(/^p1:/);
  });

  it('when its key was removed from the keyring: says so, and seals new values with a new key', async () => {
    const keyring = memoryKeyring();
    const { id } = registryOver(dir, (await keyringSecretBox(dir, keyring.load)).box).registry.add('orphan', CONFIG);
    const [oldAccount] = keyring.entries.keys();
    keyring.entries.clear();
    const { box } = await keyringSecretBox(dir, keyring.load);
    expect(box.atRest).toBe('keyring');
    const { registry } = registryOver(dir, box);
    expect(registry.list().find((c) => c.id === id)?.error).toMatch(/key is no longer in the system keyring/);
    const sealedBefore = storedIn(dir)[0]!.sealed;
    registry.add('fresh', CONFIG);
    expect(storedIn(dir)[0]!.sealed).toBe(sealedBefore);
    expect([...keyring.entries.keys()]).not.toContain(oldAccount);
    expect(keyring.entries.size).toBe(1);
  });

  it('refuses a changed value with a clear error instead of garbage', async () => {
    const keyring = memoryKeyring();
    registryOver(dir, (await keyringSecretBox(dir, keyring.load)).box).registry.add('tampered', CONFIG);
    const stored = storedIn(dir);
    const last = stored[0]!.sealed.at(-5) === 'A' ? 'B' : 'A';
    stored[0]!.sealed = stored[0]!.sealed.slice(0, -5) + last + stored[0]!.sealed.slice(-4);
    writeFileSync(connectionsFile(dir), JSON.stringify(stored));
    const { registry } = registryOver(dir, (await keyringSecretBox(dir, keyring.load)).box);
    expect(registry.list()[1]).toMatchObject({ state: 'error', error: expect.stringMatching(/do not match their key/) });
  });

  it('does not trust a keyring that accepts a key and forgets it', async () => {
    const { box, note } = await keyringSecretBox(dir, memoryKeyring({ forgetful: true }).load);
    expect(box.atRest).toBe('file');
    expect(note).toMatch(/did not keep the key/);
  });
});
