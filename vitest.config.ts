import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Files in parallel (the browser tests excepted: fileParallelism below): each integration file has
    // its own database and, on a shared broker, its own topic root (topic-root-setup.ts). They mostly
    // wait on devices and timers, so three share two cores.
    maxWorkers: Number(process.env.TEST_WORKERS) || 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/server/test/**/*.test.ts', 'packages/agent/test/**/*.test.ts'],
          globalSetup: ['packages/server/test/global-setup.ts'],
          setupFiles: ['packages/server/test/topic-root-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // A worker runs its files one after another in one process: the server's modules are
          // imported once per worker, not once per file (isolated, importing took 216 of the 946
          // seconds of test files, and the run 424 s against 298-313 s). Each file still starts and
          // closes its own servers, database and topic root (topic-root-setup.ts).
          isolate: false,
          // Real brokers and databases on a loaded two-core runner: one retry, and scripts/test.mjs
          // names every test that needed it, so a flaky test is visible rather than silent.
          retry: 1,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          // A limit against a hang, not a speed target: a scenario of 30-40 s on a quiet two-core
          // machine (sharing's transfer, backup, a port, a VLAN) passed 60 s in a loaded CI run.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          retry: 1,
        },
      },
    ],
  },
});
