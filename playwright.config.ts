import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
// Journeys tagged @screens (e2e/fixtures.ts) check how screens look and read, which neither the database nor the
// server's Node version changes: they run on the embedded database, and the PostgreSQL run and CI's Node 24 run
// (E2E_SCREENS=elsewhere, decision 160) keep the journeys that move data.
export const screensElsewhere =
  Boolean(process.env.TEST_DATABASE_URL) || process.env.E2E_SCREENS === 'elsewhere';
// The journeys' screenshots (e2e/screenshots/) are for a person to look at; nothing compares them. CI keeps none of
// them, so it takes none (decision 185); a run on the embedded database elsewhere takes them all.
export const takeScreenshots = !screensElsewhere && !process.env.CI;
export const E2E_ADMIN = { email: 'admin@e2e.example', password: 'e2e-admin-password' };
/** Where the journeys' server answers. */
export const E2E_ORIGIN = `http://localhost:${port}`;

export default defineConfig({
  testDir: './e2e',
  // Once the server answers: the admin raises the sign-up limit per address (every journey signs up from here).
  globalSetup: './e2e/raise-signup-limit.ts',
  // After all journeys: balance = sum of ledger for every user of the e2e database, or the run fails.
  globalTeardown: './e2e/ledger-teardown.ts',
  outputDir: process.env.E2E_OUTPUT_DIR ?? './test-results',
  // Two journey files at a time: much of a journey is waiting (a reply written word by word, a slow demo's
  // steps), so the second worker mostly uses time the first leaves idle. Journey by journey (fullyParallel) put
  // two of the heaviest screens journeys side by side beside a Vitest run in CI, and they overran their time limit
  // (decision 176).
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'journeys', grepInvert: screensElsewhere ? /@screens|@settings/ : /@settings/ },
    // Journeys tagged @settings change or read marketplace-wide settings and figures (e2e/fixtures.ts): they run
    // after the others, one at a time.
    {
      name: 'settings',
      grep: /@settings/,
      ...(screensElsewhere ? { grepInvert: /@screens/ } : {}),
      dependencies: ['journeys'],
      workers: 1,
    },
  ],
  // One more try in CI (decision 171): a journey that passes only then is printed as flaky in CI's report, a bug to
  // fix, but no longer refuses a whole stop's work.
  retries: process.env.CI ? 1 : 0,
  // A journey of many steps, each with its accessibility scan, takes well under a minute on a quiet machine; the
  // longest screens journeys (a dozen scans and full-page screenshots) took over two minutes in CI beside a Vitest
  // run on a slower day of this machine. The time limit is there to end a journey that hangs (decision 176).
  timeout: 240_000,
  // What a journey waits for shows within a second on a quiet machine; CI runs the journeys beside a Vitest run on
  // two cores, where the browser and the server share what is left, so a step may take several.
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: E2E_ORIGIN,
    // A trace records the page's frames and a snapshot at every step: on every journey it was two fifths of the
    // journeys' CPU (decision 178). In CI a journey that fails is tried again with its trace; run alone, a journey
    // keeps its trace when it fails.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    // Where no screenshot is taken, the journeys' browser asks for less motion, as some people's systems do
    // (src/web/styles.css): a spinner on a page that waits for a run stands still instead of repainting every frame
    // (a fifth of the browser's CPU in the reviews journeys, decision 185). Not beside full-page screenshots: after
    // one, Chromium scrolled the page on the next mousedown, at once instead of smoothly, so a click near the page's
    // end lost its button (decision 175; the headless shell does the same).
    reducedMotion: takeScreenshots ? 'no-preference' : 'reduce',
    // Debian's Chromium headless shell: the same Blink and V8 as the full browser, without its windowing layers,
    // for about two thirds of the CPU (decision 178). V8 without its optimising tiers (Maglev, TurboFan), its garbage
    // collector on the page's own thread: a journey's pages live seconds, so optimised code rarely paid back its
    // compiling. A fifth less of the browser's CPU over the embedded run's journeys, the three flags measured together
    // (decision 202); the app's scripts behave the same, only slower to warm.
    launchOptions: {
      executablePath: '/usr/bin/chromium-headless-shell',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--js-flags=--no-opt --no-maglev --single-threaded-gc',
      ],
    },
  },
  webServer: {
    command: 'node e2e/server.mjs',
    url: `${E2E_ORIGIN}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      PUBLIC_URL: E2E_ORIGIN,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      // The slow demo at 2 s a step instead of 5: its journeys still see a progress message, then the result.
      DEMO_SLOW_STEP_MS: '2000',
      // The demo assistant writes a word every 50 ms (production's demo: 40). A reply is a few seconds of a journey;
      // the reply the chat journey stops is long enough to stay on screen for several (e2e/chat-stream.spec.ts).
      DEMO_CHAT_WORD_MS: '50',
      // The webhooks journey delivers to a receiver on loopback, which only a server allowing private addresses
      // may call; the embedded database allows them by default, PostgreSQL (production's) does not.
      ALLOW_PRIVATE_WEBHOOKS: 'true',
    },
  },
});
