import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    pool: 'forks',
    // Starts nothing itself: test files that need Swift or RGW start them once for the whole run.
    globalSetup: ['tests/reference/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report feeds the pass/fail/skip summary that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
