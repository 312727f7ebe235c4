import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..');
const root = path.resolve(pkgDir, '../..');
const out = mkdtempSync(path.join(tmpdir(), 'n8n-nodes-flujo-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The package's build, as `npm run build` in packages/n8n-nodes-flujo makes it (tsc, then the icons), into a
 * temporary folder: what n8n loads is CommonJS, with the files package.json's "n8n" section names.
 */
describe('the n8n node package build', () => {
  it('compiles with strict types and yields the files and classes package.json names for n8n', () => {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', pkgDir, '--outDir', out],
      {
        stdio: 'pipe',
      },
    );
    execFileSync(process.execPath, [path.join(pkgDir, 'copy-icons.mjs'), out]);
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
      keywords: string[];
      n8n: { n8nNodesApiVersion: number; credentials: string[]; nodes: string[] };
    };
    // What n8n's community-node screen looks for.
    expect(pkg.keywords).toContain('n8n-community-node-package');
    expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
    const load = createRequire(path.join(out, 'index.js'));
    const names = (file: string) => path.basename(file).split('.')[0]!;
    const credentials = pkg.n8n.credentials.map((file) => {
      const compiled = path.join(out, file.replace(/^dist\//, ''));
      const Credential = (load(compiled) as Record<string, new () => { name: string; displayName: string }>)[
        names(file)
      ]!;
      return new Credential();
    });
    expect(credentials.map((c) => c.displayName)).toEqual(['Flujo API', 'Flujo OAuth2 API']);
    const nodes = pkg.n8n.nodes.map((file) => {
      const compiled = path.join(out, file.replace(/^dist\//, ''));
      type Node = {
        description: { displayName: string; icon: string; credentials?: Array<{ name: string }> };
      };
      const NodeClass = (load(compiled) as Record<string, new () => Node>)[names(file)]!;
      const node = new NodeClass();
      // The icon n8n shows is a file beside the compiled node.
      expect(existsSync(path.join(path.dirname(compiled), node.description.icon.replace(/^file:/, '')))).toBe(
        true,
      );
      return node.description;
    });
    expect(nodes.map((n) => n.displayName)).toEqual(['Flujo Trigger', 'Flujo']);
    // The trigger signs in with either credential, as its Authentication setting chooses.
    expect(nodes[0]!.credentials?.map((c) => c.name).sort()).toEqual(credentials.map((c) => c.name).sort());
  }, 120_000);
});
