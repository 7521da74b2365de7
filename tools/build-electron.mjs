#!/usr/bin/env node
// `npm run build:electron`: compiles the desktop shell (src-main/electron and the preload's types,
// tsconfig.electron.json) where the electron package is installed. Where npm left it out (its
// binary could not be downloaded, see tools/electron-optional) there are neither its types nor
// anything to run the shell with: this build is skipped, and the rest of the app builds and runs.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('electron/package.json');
} catch {
  console.log('build:electron: skipped, Electron is not installed');
  process.exit(0);
}
const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.electron.json'], { stdio: 'inherit' });
process.exit(tsc.status ?? 1);
