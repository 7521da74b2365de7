import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The inner loop (`npm run test:fast`, under a minute): pure and in-process tests. Left to
// `npm test`: real command-line clients, the reference servers and the differential suite against
// them, child processes killed or starved on purpose (tests/reliability), the newcomer's build from
// a fresh checkout (tests/first-run: `npm run build` alone is 25 s of CPU), the type-aware lint
// rules (a TypeScript program for their snippets), and the large uploads (transfer service, memory
// checks of 200 MiB through the remote backends).
const slow = [
  'tests/reliability/**',
  'tests/compat/clients-*.test.ts',
  'tests/native/swift-cli*.test.ts',
  'tests/native/slo-swiftclient.test.ts',
  'tests/native/cli.test.ts',
  'tests/native/large-objects-cli.test.ts',
  'tests/backends/reference-*.test.ts',
  'tests/differential/**',
  'tests/first-run/first-run.test.ts',
  'tests/first-run/stop.test.ts',
  'tests/lint/rules-typed.test.ts',
  'tests/services/transfers*.test.ts',
  'tests/backends/remote-compat-memory.test.ts',
  'tests/backends/remote-native-large.test.ts',
  'tests/services/keyring-system.test.ts',
  'tests/engine/crash.test.ts',
  'tests/engine/listing.random.test.ts',
];
// Files that replace modules (vi.mock), time the index's write thread or watch the process's bound
// on heap growth (other files' bodies in flight would move it) get a process of their own; the
// rest share their workers' module cache, which halves the run (imports dominate it).
const isolated = [
  'tests/services/transfer-queue.test.ts',
  'tests/services/transfer-retryable.test.ts',
  'tests/services/safe-storage.test.ts',
  'tests/electron/*.test.ts',
  'tests/engine/write-batch.test.ts',
  'tests/**/*heap-growth*.test.ts',
];
const exclude = [...(base.test?.exclude ?? []), ...slow];
// What a project takes from the whole suite's settings (its include and reporters are its own).
const { include, exclude: _, reporters: __, ...shared } = base.test ?? {};
const project = { ...shared, include };

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Most of these wait on sockets and files more than on the CPU: four workers on two cores.
    maxWorkers: 4,
    // Reruns reuse the transformed modules kept in node_modules/.experimental-vitest-cache (keyed
    // by each file's content; a reinstall clears it): 49-55 s instead of 56-63 s here.
    experimental: { fsModuleCache: true },
    // No report file: the one CI reads comes from the whole suite.
    reporters: ['default'],
    projects: [
      { test: { ...project, name: 'shared', isolate: false, exclude: [...exclude, ...isolated] } },
      { test: { ...project, name: 'isolated', include: isolated, exclude } },
    ],
  },
});
