// n8n loads a node's icon (`icon: 'file:flujo.svg'`) from beside the compiled node; tsc copies no SVG.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? path.join(here, 'dist');
for (const dir of ['nodes/Flujo', 'nodes/FlujoTrigger']) {
  copyFileSync(path.join(here, dir, 'flujo.svg'), path.join(out, dir, 'flujo.svg'));
}
