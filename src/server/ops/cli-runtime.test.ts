import { execFile, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromProjectRoot } from '../lib/project-root.js';
import { COMPILED_BUILD } from '../test/compiled-server.js';

// `npm run admin` and `npm run backup` on an install without devDependencies (`npm run build`, then
// `npm ci --omit=dev`): the compiled command lines, run by node, must find every package they import among
// the dependencies.

const ROOT = fromProjectRoot('');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

/** What tsconfig.server.json compiles: the server, the shared code and the demo services, without tests. */
function compiledSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['test', 'testing'].includes(entry.name)) out.push(...compiledSources(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** The packages a source file loads at run time (type-only imports vanish in the build). */
function runtimePackages(file: string): string[] {
  const code = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [
    ...[...code.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map(
      (m) => m[1]!,
    ),
    ...[...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('#') && !s.startsWith('node:'))
    .map((s) =>
      s
        .split('/')
        .slice(0, s.startsWith('@') ? 2 : 1)
        .join('/'),
    )
    .filter((name) => !builtinModules.includes(name));
}

describe('the command lines without devDependencies', () => {
  it('run the compiled command lines with node, not tsx', () => {
    expect(pkg.scripts.admin).toBe('node scripts/cli.mjs admin');
    expect(pkg.scripts.backup).toBe('node scripts/cli.mjs backup');
    const wrapper = readFileSync(join(ROOT, 'scripts', 'cli.mjs'), 'utf8');
    expect(wrapper).toContain('dist/src/server/cli/${name}.js');
    expect(wrapper).not.toMatch(/\btsx\b/);
  });

  it('import at run time only packages listed in dependencies', () => {
    const used = new Map<string, string>();
    for (const dir of ['src/server', 'src/shared', 'demo']) {
      for (const file of compiledSources(dir)) {
        for (const name of runtimePackages(file)) used.set(name, file);
      }
    }
    // The scan itself must see the server's packages, or it proves nothing.
    expect([...used.keys()]).toEqual(expect.arrayContaining(['fastify', 'drizzle-orm', 'zod', 'pg']));
    const missing = [...used].filter(([name]) => !(name in pkg.dependencies));
    expect(missing).toEqual([]);
  });

  // The compiled command lines run on the embedded database whatever the suite's database is, so the embedded
  // runs (both Node versions) cover them; the PostgreSQL run would only repeat them.
  describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'compiled, beside the production packages only',
    () => {
      const SLOW = 600_000;
      let dir: string;
      const node = (args: string[], env: Record<string, string> = {}) =>
        promisify(execFile)(process.execPath, args, {
          cwd: dir,
          // No NODE_PATH and no DATABASE_URL: packages come from dir/node_modules only, the database is PGlite.
          env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
          timeout: SLOW,
        }).then(
          (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
          (e: { code?: number; stdout?: string; stderr?: string }) => ({
            code: e.code ?? 1,
            stdout: e.stdout ?? '',
            stderr: e.stderr ?? '',
          }),
        );

      beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), 'flujo-prod-'));
        // A package found above dir would make the check pass without proving anything.
        for (let up = dirname(dir); up !== dirname(up); up = dirname(up)) {
          expect(existsSync(join(up, 'node_modules')), up).toBe(false);
        }
        // The build `npm run build` makes (compiled once for every process test), as a deployment copies it.
        cpSync(COMPILED_BUILD, join(dir, 'dist'), {
          recursive: true,
          filter: (source) => !source.endsWith('.map') && !source.includes(`${sep}dist${sep}web`),
        });
        // The build finds its migrations below its parent, as dist/ finds them in a checkout.
        symlinkSync(join(ROOT, 'src'), join(dir, 'src'));
        // The top-level packages of a production install, as `npm ci --omit=dev` would leave them.
        const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
          cwd: ROOT,
          encoding: 'utf8',
        }).stdout;
        const modules = join(ROOT, 'node_modules');
        let linked = 0;
        for (const path of listed.split('\n')) {
          const name = relative(modules, path.trim());
          if (!name || name.startsWith('..') || name.includes(`${sep}node_modules${sep}`)) continue;
          if (name.split(sep).length !== (name.startsWith('@') ? 2 : 1)) continue;
          mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
          symlinkSync(path.trim(), join(dir, 'node_modules', name));
          linked++;
        }
        expect(linked).toBeGreaterThan(Object.keys(pkg.dependencies).length);
        for (const dev of ['tsx', 'typescript', 'vite', 'vitest']) {
          expect(existsSync(join(dir, 'node_modules', dev)), dev).toBe(false);
        }
      }, SLOW);
      afterAll(() => {
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it(
        'print their help',
        async () => {
          const admin = await node(['dist/src/server/cli/admin.js', '--help']);
          expect(admin.stderr).toBe('');
          expect(admin.code).toBe(0);
          expect(admin.stdout).toMatch(/create/);
          const backup = await node(['dist/src/server/cli/backup.js', '--help']);
          expect(backup.code).toBe(0);
          expect(backup.stdout).toMatch(/restore <file>/);
        },
        SLOW,
      );

      it(
        'create an admin and back the database up (the embedded database, migrations, password hashing)',
        async () => {
          const env = { DATA_DIR: join(dir, 'data') };
          const created = await node(
            [
              'dist/src/server/cli/admin.js',
              'create',
              '--email',
              'ops@prod.example',
              '--password',
              'a-long-password-1',
            ],
            env,
          );
          expect(created.stderr).toBe('');
          expect(created.code).toBe(0);
          const out = join(dir, 'flujo.tar.gz');
          const backup = await node(['dist/src/server/cli/backup.js', 'create', '--out', out], env);
          expect(backup.code).toBe(0);
          expect(existsSync(out)).toBe(true);
        },
        SLOW,
      );
    },
  );
});
