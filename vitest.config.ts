import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests, and end-to-end tests that spawn the real Claude CLI.
// An e2e test costs ~1 s and ~1-1.5 CPU-seconds per CLI process, so that project runs
// with few workers and generous timeouts to stay stable on a loaded 2-core machine.
export default defineConfig({
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['packages/*/test/unit/**/*.test.ts'],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          // Runs after the unit tests, with its own worker limit.
          sequence: { groupOrder: 1 },
          include: ['packages/*/test/e2e/**/*.test.ts', 'examples/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxWorkers: 2,

          fileParallelism: true,
        },
      },
    ],
  },
});
