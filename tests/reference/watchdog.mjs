// Stops the reference servers of a test run whose runner died before its teardown:
// `node watchdog.mjs OWNER_PID GROUPS_FILE RUN_DIR MAX_SECONDS`. Exits by itself when RUN_DIR is
// gone (the teardown did the work); otherwise, once OWNER_PID is gone or MAX_SECONDS have passed,
// sends SIGTERM then SIGKILL to every process group listed in GROUPS_FILE and removes RUN_DIR.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const [owner, groupsFile, runDir, maxSeconds] = process.argv.slice(2);
const deadline = Date.now() + Number(maxSeconds) * 1000;

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

for (;;) {
  if (!existsSync(runDir)) process.exit(0);
  if (!alive(Number(owner)) || Date.now() > deadline) break;
  await sleep(1000);
}

// Marked closed first: a daemon started from now on stops itself (processes.ts, startDaemon).
try {
  writeFileSync(`${groupsFile}.closed`, '');
} catch {
  // The directory went meanwhile: the teardown is doing the work.
}
const listed = () =>
  existsSync(groupsFile) ? readFileSync(groupsFile, 'utf8').split('\n').map((l) => Number(l.split(' ')[0])).filter((n) => n > 1) : [];
const signal = (groups, sig) => {
  for (const g of groups) {
    try {
      process.kill(-g, sig);
    } catch {
      // Already gone.
    }
  }
};
let groups = listed();
signal(groups, 'SIGTERM');
for (let i = 0; i < 50 && groups.some((g) => alive(-g)); i++) await sleep(100);
// Read again: a daemon listed while the first list was being stopped goes too.
groups = listed();
signal(groups, 'SIGKILL');
rmSync(runDir, { recursive: true, force: true });
