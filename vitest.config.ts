import { configDefaults, defineConfig } from 'vitest/config';

const ALL_TESTS = [
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  'demo/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
];

/**
 * Test files that need a module graph of their own: they mock modules (`vi.mock`), stub globals, install fake
 * timers or run in jsdom. Every other file shares its worker's modules with the files before it (`isolate:
 * false`), which saves re-importing the server for each file (about 40% of the suites' CPU). A file that starts
 * doing one of those things must be listed here: `src/server/test/isolation.test.ts` fails until it is.
 */
export const ISOLATED_TESTS = [
  'src/web/**/*.test.ts',
  'src/web/**/*.test.tsx',
  'src/server/modules/public-api/mcp.test.ts',
  'src/server/modules/auth/credentials.test.ts',
  'src/server/plugins/access-log.test.ts',
  // Compares the committed web client with one generated from a fresh app's document: a schema's component
  // name (Bilingual or BilingualInput) depends on which routes' schemas the process converted before.
  'src/server/test/web-api-types.test.ts',
];

/** What both projects run with. The global setup is the root's alone: it runs once, and what it provides reaches both. */
const common = {
  setupFiles: ['./src/server/test/ledger-guard.ts'],
  pool: 'forks' as const,
  maxWorkers: 2,
  // A test that builds an app of its own (a new database, its migrations) inside its body needs what a hook
  // that builds one gets: on a slow day of CI's machine, beside the journeys, two such tests overran 30 s.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  environment: 'node',
};

export default defineConfig({
  test: {
    globalSetup: ['./src/server/test/global-setup.ts'],
    ...common,
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: ALL_TESTS,
          exclude: [...configDefaults.exclude, ...ISOLATED_TESTS],
          isolate: false,
        },
      },
      { test: { ...common, name: 'isolated', include: ISOLATED_TESTS } },
    ],
  },
});
