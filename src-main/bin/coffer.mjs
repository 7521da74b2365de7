#!/usr/bin/env node
// `coffer` command. Runs the compiled CLI (dist/, from `npm run build:main`, which `npm start` and
// `npm run typecheck` also run) when it is newer than every source it was compiled from; otherwise
// the TypeScript sources through tsx, so it works right after `npm ci` and right after an edit.
// The compiled code is the one to serve with: tsx's transform names each function it creates at
// run time (esbuild's keepNames), which cost the server 7-16% of its CPU per request.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

// The desktop shell is compiled apart (tsconfig.electron.json) and the CLI never loads it.
const SHELL = new Set([join(root, 'src-main', 'electron'), join(root, 'src-main', 'preload')]);

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = SHELL.has(path) ? newest : Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt(project) {
  try {
    return statSync(join(root, 'dist', '.tsbuildinfo', project)).mtimeMs;
  } catch {
    return -1;
  }
}

const compiledCli = join(root, 'dist', 'src-main', 'cli.js');
const compiledIsCurrent =
  existsSync(compiledCli) && ['main', 'shared'].every((project) => builtAt(project) >= newestSource(join(root, `src-${project}`)));

if (compiledIsCurrent) {
  await import('../../dist/src-main/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli.ts');
}
