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
          // One process for the whole layer, its module cache kept between files, so each assembly is synthesized
          // (and bundled) once per run and shared (test/infra/synth.ts) instead of once per file.
          isolate: false,
          fileParallelism: false,
          // Sized for a busy 2-core machine: a bundled synth there took 268 s. The limit only stops a hung run.
          testTimeout: 900_000,
          hookTimeout: 900_000,
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
