import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'demo/**/*.test.ts'],
    globalSetup: ['./src/server/test/global-setup.ts'],
    setupFiles: ['./src/server/test/ledger-guard.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    environment: 'node',
  },
});
