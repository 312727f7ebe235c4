import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_TESTS,
  IN_A_DOCUMENT,
  ISOLATED_TESTS,
  NEEDS_ISOLATION,
  runsWebTests,
  WEB_TESTS,
} from '../../../vitest.config.js';

// Written in pieces: the calls themselves in this file's text would give it a module graph of its own.
const vi = (call: string) => `vi.${call}`;

describe('test isolation (vitest.config.ts)', () => {
  it('gives a module graph of its own to every file that mocks, stubs or fakes timers, and to no other', () => {
    for (const leaks of [
      vi("mock('../lib/api-client.js', () => ({}))"),
      vi('doMock(path)'),
      vi("stubGlobal('fetch', fake)"),
      vi("stubEnv('NODE_ENV', 'production')"),
      vi('useFakeTimers()'),
    ]) {
      expect(NEEDS_ISOLATION.test(leaks), leaks).toBe(true);
    }
    for (const shares of [vi('fn()'), vi('waitFor(() => seen)'), 'const mock = true', '// runs in node']) {
      expect(NEEDS_ISOLATION.test(shares), shares).toBe(false);
    }
    // Found in the project's own files: files that mock a module (one of them in jsdom), but not a pure one.
    expect(ISOLATED_TESTS).toContain('src/server/modules/public-api/mcp.test.ts');
    expect(ISOLATED_TESTS).toContain('src/web/features/execute/edit-saved-files.test.tsx');
    expect(ISOLATED_TESTS).not.toContain('src/web/lib/format.test.ts');
    expect(ISOLATED_TESTS).not.toContain('src/server/test/isolation.test.ts');
  });

  it('runs the files that need a document, and mock nothing, in one shared jsdom document', () => {
    expect(IN_A_DOCUMENT.test(`// @vitest-environment ${'jsdom'}`)).toBe(true);
    expect(IN_A_DOCUMENT.test('// @vitest-environment node')).toBe(false);
    expect(DOCUMENT_TESTS).toContain('src/web/features/execute/survey-form.test.tsx');
    expect(DOCUMENT_TESTS).not.toContain('src/web/features/execute/edit-saved-files.test.tsx');
    expect(DOCUMENT_TESTS).not.toContain('src/web/lib/format.test.ts');
  });

  it('runs the web’s tests in the embedded database’s run only, every document test among them', () => {
    expect(runsWebTests({})).toBe(true);
    expect(runsWebTests({ TEST_DATABASE_URL: 'postgres://127.0.0.1/flujo' })).toBe(false);
    expect(runsWebTests({ WEB_TESTS: 'elsewhere' })).toBe(false);
    expect(runsWebTests({ WEB_TESTS: '' })).toBe(true);
    // A test in a document exercises the web, whatever its folder; the server's own tests stay in every run.
    for (const file of DOCUMENT_TESTS) expect(WEB_TESTS).toContain(file);
    expect(WEB_TESTS).toContain('src/web/features/execute/edit-saved-files.test.tsx');
    expect(WEB_TESTS).toContain('src/web/lib/format.test.ts');
    expect(WEB_TESTS).toContain('src/server/test/web-api-types.test.ts');
    expect(WEB_TESTS).not.toContain('src/server/modules/auth/credentials.test.ts');
    expect(WEB_TESTS).not.toContain('src/shared/i18n/errors.test.ts');
  });
});
