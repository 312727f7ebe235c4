import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': 'off',
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
  // The demo workflow services stand beside the app (demo/): the app reaches them only through
  // demo/register.ts, and the services themselves (all but the seeding) use nothing of the server, as an
  // outside workflow service could not. Matched on the import text: the import-x zones above need a resolver
  // that finds `.ts` sources behind `.js` specifiers.
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
  {
    files: ['demo/hooks/**/*.ts', 'demo/files/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/server/',
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
      // A feature never reaches into another feature; app/ composes them.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: ['home', 'auth', 'catalogue', 'execute', 'executions', 'account', 'billing', 'admin']
            .map((f) => ({
              target: `./src/web/features/${f}`,
              from: './src/web/features',
              except: [`./${f}`],
            }))
            .concat([{ target: './src/web', from: './src/server' }]),
        },
      ],
    },
  },
);
