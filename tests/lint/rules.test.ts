// The rules beyond the layers: raw Electron IPC in the two bridge files only and the command
// line's own rules. The type-aware ones are in rules-typed.test.ts.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fired } from './fired.js';

/** Snippets linted as files that need not exist: every rule but the type-aware ones. */
const untyped = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/switch-exhaustiveness-check': 'off' },
  },
});

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
