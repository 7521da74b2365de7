// The rules beyond the layers: raw Electron IPC in the two bridge files only, the command line's
// own rules, and the type-aware rules (floating promises, switches that miss a member of a union).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** Snippets linted as files that need not exist: every rule but the type-aware ones. */
const untyped = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/switch-exhaustiveness-check': 'off' },
  },
});
/** The configuration as `npm run lint` runs it, type information included. */
const typed = new ESLint();

async function fired(eslint: ESLint, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).map((m) => m.ruleId ?? '');
}

describe('raw Electron IPC', () => {
  it.each([
    ['src-main/electron/main.ts', "import { ipcMain } from 'electron';"],
    ['src-main/electron/windows.ts', "import { app, ipcMain } from 'electron';\napp.quit();\nipcMain.handle('x', () => 1);"],
    ['src-main/electron/menu.ts', "import * as electron from 'electron';\nelectron.ipcMain.on('x', () => undefined);"],
    ['src-main/electron/dialogs.ts', "import electron from 'electron';\nconst { ipcMain } = electron;\nipcMain.on('x', () => undefined);"],
    ['src-main/preload/bridge-api.ts', "import { ipcRenderer } from 'electron';"],
    ['src-main/preload/other.ts', "const { ipcRenderer } = require('electron');\nipcRenderer.send('x');"],
    ['src-main/services/x.ts', "import { ipcMain } from 'electron';"],
  ])('is refused in %s: %s', async (file, code) => {
    expect((await fired(untyped, file, code)).filter((r) => r === 'no-restricted-imports' || r === 'no-restricted-syntax')).not.toEqual([]);
  });

  it.each([
    ['src-main/electron/ipc-bridge.ts', "import { ipcMain } from 'electron';\nipcMain.handle('coffer:call', () => 1);"],
    ['src-main/preload/preload.ts', "import { contextBridge, ipcRenderer } from 'electron';\ncontextBridge.exposeInMainWorld('coffer', { call: () => ipcRenderer.invoke('coffer:call') });"],
    // A port handed in by the bridge file is not raw IPC.
    ['src-main/preload/bridge-api.ts', "export function make({ ipcRenderer }: { ipcRenderer: { invoke(c: string): Promise<unknown> } }) {\n  return () => ipcRenderer.invoke('coffer:call');\n}"],
    ['src-main/electron/main.ts', "import { app } from 'electron';\napp.quit();"],
  ])('is allowed in %s', async (file, code) => {
    expect(await fired(untyped, file, code)).toEqual([]);
  });
});

describe('the command line', () => {
  it.each([
    ['src-main/cli/admin.ts', "import '../electron/windows.js';", 'no-restricted-imports'],
    ['src-main/cli.ts', "import './electron/main.js';", 'no-restricted-imports'],
    ['src-main/cli/admin.ts', "import 'electron';", 'no-restricted-imports'],
    ['src-main/cli/admin.ts', "console.log('done');", 'no-console'],
    ['src-main/cli/admin.ts', 'process.exit(1);', 'no-restricted-properties'],
    ['src-main/engine/x.ts', 'process.exit(1);', 'no-restricted-properties'],
  ])('%s may not: %s', async (file, code, rule) => {
    expect(await fired(untyped, file, code)).toContain(rule);
  });

  it('ends the process from its entry only', async () => {
    expect(await fired(untyped, 'src-main/cli.ts', "process.stdout.write('x\\n');\nprocess.exit(1);")).toEqual([]);
  });
});

// Type information comes from the tsconfig that holds the file, so each snippet stands in for a
// real file of its layer (the file on disk is not read, nor changed).
describe('type-aware rules', () => {
  it.each([
    ['src-main/services/secrets.ts', 'export async function save(write: () => Promise<void>) {\n  write();\n}'],
    ['src-renderer/features/transfers/progress.ts', "export function go(load: () => Promise<void>) {\n  load().then(() => undefined);\n}"],
    ['src-shared/names.ts', 'export function later(p: Promise<number>) {\n  p.finally(() => undefined);\n}'],
  ])('a floating promise in %s', async (file, code) => {
    expect(await fired(typed, file, code)).toContain('@typescript-eslint/no-floating-promises');
  }, 60_000);

  it('a promise awaited, or left to run on purpose with void, passes', async () => {
    const code = 'export async function save(write: () => Promise<void>) {\n  await write();\n  void write().catch(() => undefined);\n}';
    expect(await fired(typed, 'src-main/services/secrets.ts', code)).toEqual([]);
  }, 60_000);

  it.each([
    ['src-renderer/features/preview/preview-kind.ts', "type Kind = 'image' | 'text' | 'pdf';\nexport function f(k: Kind): number {\n  switch (k) {\n    case 'image':\n      return 1;\n    default:\n      return 0;\n  }\n}"],
    ['src-main/services/secrets.ts', "import type { CofferErrorCode } from '../../src-shared/errors.js';\nexport function f(c: CofferErrorCode): number {\n  switch (c) {\n    case 'NoSuchKey':\n      return 404;\n  }\n  return 500;\n}"],
  ])('a switch that misses a member of its union in %s (a default does not excuse it)', async (file, code) => {
    expect(await fired(typed, file, code)).toContain('@typescript-eslint/switch-exhaustiveness-check');
  }, 60_000);
});
