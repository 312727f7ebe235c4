import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TESTS } from '../../../vitest.config.js';
import { fromProjectRoot } from '../lib/project-root.js';

/** What a test file does that leaks into the next file of its worker when modules are shared. */
const NEEDS_ISOLATION =
  /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|@vitest-environment\s+jsdom/;

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('**/')
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('(?:.*/)?');
  return new RegExp(`^${source}$`);
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('test isolation (vitest.config.ts)', () => {
  it('lists every test file that mocks modules, stubs globals, fakes timers or runs in jsdom', () => {
    const root = fromProjectRoot('.');
    const isolated = ISOLATED_TESTS.map(globToRegExp);
    const files = ['src', 'demo', 'packages'].flatMap((dir) => testFiles(join(root, dir)));
    expect(files.length).toBeGreaterThan(100);
    const unlisted = files
      .map((file) => relative(root, file))
      .filter((file) => NEEDS_ISOLATION.test(readFileSync(join(root, file), 'utf8')))
      .filter((file) => !isolated.some((re) => re.test(file)));
    expect(unlisted).toEqual([]);
  });
});
