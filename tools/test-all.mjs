// `npm test`: the unit and integration suites (vitest), then the browser specs (Playwright) against
// the app built once before them. Both always run, so a failing unit test never hides what the
// specs would have found; the exit status is a failure when either failed.
import { spawnSync } from 'node:child_process';

const tiers = [
  ['vitest', ['run']],
  ['playwright', ['test']],
];
let failed = [];
for (const [tool, args] of tiers) {
  const { status, error } = spawnSync('npx', ['--no-install', tool, ...args], { stdio: 'inherit' });
  if (error || status !== 0) failed.push(tool);
}
if (failed.length) console.error(`npm test: ${failed.join(' and ')} failed`);
process.exit(failed.length ? 1 : 0);
