import { configDefaults, defineConfig } from 'vitest/config';

// Three projects:
// - unit: fast tests, no real CLI;
// - e2e: tests that spawn the real Claude CLI (~1 s and ~1-1.5 CPU-seconds per CLI process),
//   with few workers and generous timeouts to stay stable on a loaded 2-core machine;
// - integration: tests that start a real PostgreSQL, a real Chromium, an `npm pack` install or
//   several processes on one store. New ones are named `*.integration.test.ts`; the older ones
//   are listed below until they are renamed.
const integrationFiles = [
  'packages/*/test/**/*.integration.test.ts',
  'packages/holodeck/test/e2e/packed-install.e2e.test.ts',
  'packages/holodeck/test/e2e/view/view-pages.e2e.test.ts',
  'packages/holodeck/test/e2e/view/view-static-report.e2e.test.ts',
  'packages/holodeck/test/unit/tools/retrieval/postgres-retrieval-store.test.ts',
  'packages/novarch/test/e2e/console/console-browser.e2e.test.ts',
  'packages/novarch/test/e2e/server-console-agents.e2e.test.ts',
  'packages/novarch/test/e2e/store-multi-process.e2e.test.ts',
  'packages/novarch/test/unit/identity/identity-store.test.ts',
  'packages/novarch/test/unit/store/postgres-*.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
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
