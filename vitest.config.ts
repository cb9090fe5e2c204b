import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The JSON report feeds .ci/summary.mjs (the `N passed, N failed` line); the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: '.cache/test-report.json' },
    // A limit for a hang, not a speed check: with a second suite beside it on 2 cores, CPU-bound tests that take
    // 15-20 s on their own ran close to 30 s. Timing targets live in `npm run bench`.
    testTimeout: 60_000,
    // a private user cache folder for the run (servers cache the index of several catalogs there by default)
    globalSetup: ['test/helpers/global-cache.ts'],
    // one event-loop turn before each test, so that vitest's own worker RPC is answered on a busy machine
    setupFiles: ['test/helpers/yield-between-tests.ts'],
    hookTimeout: 120_000,
    // Tests spawn servers and read 13 MB specs; two cores: keep parallelism modest.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
