// What `npm install` and `npm run dist` rely on, kept in agreement: Electron stays out of the
// production dependencies (electron-builder would package it into the app) and installs as an
// optional dependency (npm goes on without it where its binary cannot be downloaded), and the
// version electron-builder packages is the one `npm start` runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const json = (path: string) => JSON.parse(read(path)) as Record<string, Record<string, unknown>>;

describe('Electron in the dependencies', () => {
  const root = json('package.json');
  const optional = json('tools/electron-optional/package.json');
  const lock = json('package-lock.json').packages as Record<string, { version?: string; dev?: boolean; optional?: boolean }>;

  it('is an optional dependency of a dev-only package, never a production one', () => {
    for (const field of ['dependencies', 'optionalDependencies', 'devDependencies']) expect(root[field]?.electron, field).toBeUndefined();
    expect(root.devDependencies!['coffer-electron-optional']).toBe('file:tools/electron-optional');
    expect(lock['node_modules/electron']).toMatchObject({ dev: true, optional: true });
  });

  it('is the version electron-builder packages, pinned exactly', () => {
    const pinned = optional.optionalDependencies!.electron as string;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock['node_modules/electron']!.version).toBe(pinned);
    expect(/^electronVersion: (\S+)$/m.exec(read('electron-builder.yml'))?.[1]).toBe(pinned);
  });
});
