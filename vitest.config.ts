import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // No process, port or temporary folder left behind by any test (checked after the run).
    globalSetup: ['./test/leftovers.ts'],
    reporters: ['default', './test/summaryReporter.ts'],
  },
});
