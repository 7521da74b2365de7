import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The inner loop (`npm run test:fast`, under a minute): pure and in-process tests. Left to
// `npm test`: real command-line clients, the reference servers, child processes killed or starved
// on purpose (tests/reliability), and the transfer service's large uploads.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    exclude: [
      ...(base.test?.exclude ?? []),
      'tests/reliability/**',
      'tests/compat/clients-*.test.ts',
      'tests/native/swift-cli.test.ts',
      'tests/native/cli.test.ts',
      'tests/native/large-objects-cli.test.ts',
      'tests/backends/reference-*.test.ts',
      'tests/services/transfers*.test.ts',
      'tests/services/keyring-system.test.ts',
      'tests/engine/crash.test.ts',
      'tests/engine/listing.random.test.ts',
    ],
    // No report file: the one CI reads comes from the whole suite.
    reporters: ['default'],
  },
});
