import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const ALL_TESTS = [
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  'demo/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
];

/** What a test file does that leaks into the next file of its worker when modules are shared. */
export const NEEDS_ISOLATION = /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/;
/** A test file that runs in a browser's document (jsdom) rather than in Node's globals. */
export const IN_A_DOCUMENT = /@vitest-environment\s+jsdom/;

/** The check that the web's generated client (src/web/lib/api-paths.ts) matches the server's contract. */
const WEB_CLIENT_CHECK = 'src/server/test/web-api-types.test.ts';

/** Files that need a module graph of their own for a reason their text does not show. */
const ALSO_ISOLATED = [
  // Compares the committed web client with one generated from a fresh app's document: a schema's component
  // name (Bilingual or BilingualInput) depends on which routes' schemas the process converted before.
  WEB_CLIENT_CHECK,
];

const root = fileURLToPath(new URL('.', import.meta.url));

/** The test files under a folder of the project, as paths from the project's root. */
function testFilesIn(dir: string): string[] {
  return readdirSync(root + dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFilesIn(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const testTexts = ['src', 'demo', 'packages']
  .flatMap((dir) => testFilesIn(dir))
  .map((file) => ({ file, text: readFileSync(root + file, 'utf8') }));
/**
 * Test files that need a module graph of their own: they mock modules (`vi.mock`), stub globals or the
 * environment, or install fake timers, as their text shows (NEEDS_ISOLATION), or are listed above. Every other
 * file shares its worker's modules with the files before it (`isolate: false`), which saves re-importing the
 * server, or starting a process, for each file (decisions 170 and 187).
 */
export const ISOLATED_TESTS = [
  ...testTexts.filter(({ text }) => NEEDS_ISOLATION.test(text)).map(({ file }) => file),
  ...ALSO_ISOLATED,
];
/** The web's screens and hooks tested in jsdom that need no graph of their own: they share one document. */
export const DOCUMENT_TESTS = testTexts
  .filter(({ file, text }) => IN_A_DOCUMENT.test(text) && !ISOLATED_TESTS.includes(file))
  .map(({ file }) => file);

/**
 * The web's own tests: its screens, hooks and helpers, and the check that its generated client matches the server's
 * contract. The web runs in a visitor's browser, which neither the suite's database nor the server's Node version
 * reaches, so a run on PostgreSQL, or with `WEB_TESTS=elsewhere` (CI's Node 24 run), leaves them to the embedded
 * database's run, as it leaves the journeys about screens (decisions 160 and 198).
 */
export const WEB_TESTS = testTexts
  .map(({ file }) => file)
  .filter((file) => file.startsWith('src/web/') || file === WEB_CLIENT_CHECK);
/** Whether a run with these variables runs the web's tests. */
export const runsWebTests = (env: NodeJS.ProcessEnv) =>
  !env.TEST_DATABASE_URL && env.WEB_TESTS !== 'elsewhere';
const webTestsHere = runsWebTests(process.env);
const elsewhere = webTestsHere ? [] : WEB_TESTS;

/** What every project runs with. The global setup is the root's alone: it runs once, and what it provides reaches all. */
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
          exclude: [...configDefaults.exclude, ...ISOLATED_TESTS, ...DOCUMENT_TESTS, ...elsewhere],
          isolate: false,
        },
      },
      ...(webTestsHere
        ? [
            {
              test: {
                ...common,
                name: 'document',
                include: DOCUMENT_TESTS,
                environment: 'jsdom',
                isolate: false,
              },
            },
          ]
        : []),
      {
        test: {
          ...common,
          name: 'isolated',
          include: ISOLATED_TESTS,
          exclude: [...configDefaults.exclude, ...elsewhere],
        },
      },
    ],
  },
});
