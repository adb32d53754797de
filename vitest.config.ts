import { configDefaults, defineConfig } from 'vitest/config';

// Three projects:
// - unit: fast tests, no real CLI;
// - e2e: tests that spawn the real Claude CLI (~1 s and ~1-1.5 CPU-seconds per CLI process),
//   with few workers and generous timeouts to stay stable on a loaded 2-core machine;
// - integration: tests that start a real PostgreSQL, a real Chromium, an `npm pack` install or
//   several processes on one store, all named `*.integration.test.ts` (in the unit or e2e
//   folder where their subject lives).
const integrationFiles = ['packages/*/test/**/*.integration.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          // The files of a worker share one module registry: importing the packages once per
          // worker instead of once per file took the unit project from 332 s to ~100 s on a quiet
          // 2-core machine (import 133 s -> 17 s). Unit tests keep no state between files (checked
          // with --sequence.shuffle.files); a test that must have fresh modules belongs in e2e.
          isolate: false,
          include: ['packages/*/test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...integrationFiles],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          // Runs after the unit tests, with its own worker limit.
          sequence: { groupOrder: 1 },
          include: ['packages/*/test/e2e/**/*.test.ts', 'examples/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...integrationFiles],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 2 },
          include: integrationFiles,
          testTimeout: 180_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
    ],
  },
});
