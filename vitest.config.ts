import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // One worker per core (vitest's default leaves one core idle): most files wait on child
    // processes, sockets, Redis or nginx, so a second worker overlaps those waits (figures in docs/design.md).
    maxWorkers: '100%',
    // No process, port or temporary folder left behind by any test (checked after the run).
    globalSetup: ['./test/leftovers.ts'],
    reporters: ['default', './test/summaryReporter.ts'],
  },
});
