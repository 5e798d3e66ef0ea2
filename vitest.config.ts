import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Most suites wait on real processes, bwrap and workers rather than compute: two files at a time on a 2-core
    // machine halves the wall time (vitest's default there is one).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
