import { defineConfig } from 'vitest/config';

// The handlers' info lines (every generation, every connection) would bury the test report; warnings still show.
process.env.LOG_LEVEL ??= 'warn';
// Powertools' metric lines (EMF) would fill the test output; the tests that count metrics turn them back on.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

// Four layers, one runner. Integration and e2e start their own local twin on free ports (test/support/global-twin.ts).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-twin.ts'],
          // One file at a time: they share one twin, and video renders take both cores.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-twin.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
