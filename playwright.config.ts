import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN = { email: 'admin@e2e.example', password: 'e2e-admin-password' };

export default defineConfig({
  testDir: './e2e',
  // Once the server answers: the admin raises the sign-up limit per address (every journey signs up from here).
  globalSetup: './e2e/raise-signup-limit.ts',
  // After all journeys: balance = sum of ledger for every user of the e2e database, or the run fails.
  globalTeardown: './e2e/ledger-teardown.ts',
  outputDir: process.env.E2E_OUTPUT_DIR ?? './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node e2e/server.mjs',
    url: `http://localhost:${port}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      // The slow demo at 2 s a step instead of 5: its journeys still see a progress message, then the result.
      DEMO_SLOW_STEP_MS: '2000',
    },
  },
});
