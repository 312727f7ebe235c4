import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The folders under `dir`: a module or feature added there is covered by the zones below without editing them. */
const foldersOf = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const SERVER_MODULES = foldersOf('./src/server/modules/');
const WEB_FEATURES = foldersOf('./src/web/features/');

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      'src/server/db/migrations',
      'bench/.data',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      // The cycle check parses the files an import leads to, which needs the TypeScript parser.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      // Finds the `.ts` source behind a `.js` specifier and the `#server`/`#shared`/`#web` aliases, so the
      // path rules below see every import.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'tsconfig.web.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // One-way dependencies: shared imports nothing of ours; server and web never import each other.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/shared', from: ['./src/server', './src/web'] },
            { target: './src/server', from: './src/web' },
            { target: './src/web', from: './src/server' },
          ],
        },
      ],
    },
  },
  // A server module reaches another only through that module's service.ts; tests may reach further in.
  {
    files: ['src/server/modules/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: SERVER_MODULES.map((m) => ({
            target: `./src/server/modules/${m}`,
            from: './src/server/modules',
            except: [`./${m}`, ...SERVER_MODULES.filter((o) => o !== m).map((o) => `./${o}/service.ts`)],
          })),
        },
      ],
    },
  },
  // The demo workflow services stand beside the app (demo/): the app reaches them only through
  // demo/register.ts, and the services themselves (all but the seeding) use nothing of the server, as an
  // outside workflow service could not.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+demo/(?!register\\.js$)',
              message: 'The app reaches the demo services only through demo/register.ts.',
            },
          ],
        },
      ],
    },
  },
  // A journey takes `test` from e2e/journey.ts, whose `page` is handed on within a worker (decision 200).
  {
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "A journey takes `test` from './journey.js', whose page is handed on (decision 200).",
            },
          ],
        },
      ],
      // The worker's page was opened with the project's context options: a journey that needs others besides
      // the viewport asks for a context of its own.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='test'][callee.property.name='use'] > ObjectExpression:not(:has(Property[key.name='ownContext'][value.value=true])) > Property[key.name!=/^(viewport|ownContext)$/]",
          message:
            'A journey with context options besides the viewport sets ownContext: true (decision 200).',
        },
      ],
    },
  },
  {
    files: ['demo/hooks/**/*.ts', 'demo/files/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/server/|^#server/',
              message: 'A demo service knows only the public webhook contract, not the server.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // A feature never reaches into another feature; app/ composes them.
            ...WEB_FEATURES.map((f) => ({
              target: `./src/web/features/${f}`,
              from: './src/web/features',
              except: [`./${f}`],
            })),
            // Features never import the app shell; shared components and lib never import features or the shell.
            { target: './src/web/features', from: './src/web/app' },
            {
              target: ['./src/web/components', './src/web/lib'],
              from: ['./src/web/features', './src/web/app'],
            },
            { target: './src/web', from: './src/server' },
          ],
        },
      ],
    },
  },
);
