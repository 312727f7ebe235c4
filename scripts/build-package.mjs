// Writes `<outDir>/package.json` for a compiled server. The build mirrors the repository's folders, so the
// package's own import aliases (`#server/*`, `#shared/*`) resolve inside the build with the same targets.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node scripts/build-package.mjs <outDir>');
  process.exit(2);
}
const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
writeFileSync(
  join(outDir, 'package.json'),
  `${JSON.stringify({ type: root.type, imports: root.imports }, null, 2)}\n`,
);
