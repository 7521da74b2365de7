// vitest globalSetup: a run directory where test files start the reference servers they need
// (nothing starts unless a test asks), and a teardown that stops whatever they started.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTimes, stopRun } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    referenceRunDir: string;
    referenceOwnerPid: number;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const runDir = mkdtempSync(join(tmpdir(), 'coffer-reference-run-'));
  project.provide('referenceRunDir', runDir);
  project.provide('referenceOwnerPid', process.pid);
  return async () => {
    const times = startTimes(runDir);
    if (times.length) console.log(`Reference servers: ${times.join('; ')}`);
    await stopRun(runDir);
  };
}
