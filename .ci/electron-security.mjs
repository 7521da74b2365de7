// The Electron security linter (electronegativity) over the built app in dist/: the main
// process, the preload and the renderer's HTML (its CSP). Fails on every finding of SARIF level
// warning or error; notes (the tool's own "may be", e.g. script-src 'self', which it cannot
// judge for an app that serves no user content) are printed, not failed on. Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const electronVersion = require('electron/package.json').version;
const out = 'reports/electronegativity.sarif';
mkdirSync('reports', { recursive: true });
const run = spawnSync(
  'npx',
  ['--no-install', 'electronegativity', '-i', 'dist', '-e', electronVersion, '-r', '-v', 'false', '-o', out],
  { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 },
);
if (run.status !== 0) {
  console.error(`electronegativity exited with ${run.status ?? run.signal}`);
  process.exit(1);
}
const findings = JSON.parse(readFileSync(out, 'utf8')).runs.flatMap((r) => r.results);
let failed = 0;
for (const f of findings) {
  const where = f.locations?.[0]?.physicalLocation;
  const note = f.level === 'note';
  console.log(`${note ? 'note' : 'FINDING'} ${f.ruleId} ${where?.artifactLocation?.uri ?? ''}:${where?.region?.startLine ?? 0} ${f.message.text}`);
  if (!note) failed++;
}
console.log(`electronegativity (Electron ${electronVersion}): ${findings.length} finding(s), ${failed} failing`);
process.exit(failed ? 1 : 0);
