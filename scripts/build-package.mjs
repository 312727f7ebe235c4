// Writes `<outDir>/package.json` for a compiled server. The build mirrors the repository's folders, so the
// package's own import aliases (`#server/*`, `#shared/*`) resolve inside the build with the same targets.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node scripts/build-package.mjs <outDir>');
  process.exit(2);
}
const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const file = join(outDir, 'package.json');
const content = `${JSON.stringify({ type: root.type, imports: root.imports }, null, 2)}\n`;
// Written only when it changes: servers from this build may be starting meanwhile (CI runs the process tests
// beside the journeys' server), and would read a file being rewritten as truncated.
if (!existsSync(file) || readFileSync(file, 'utf8') !== content) writeFileSync(file, content);
