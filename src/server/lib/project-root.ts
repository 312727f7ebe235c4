import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, whether the server runs from its sources or from the build. The build mirrors the
 * repository from its root (tsconfig.server.json), because the demo services in demo/ compile with the server:
 * this file is src/server/lib/project-root.ts in the sources and <outDir>/src/server/lib/project-root.js once
 * built, one folder deeper. Built into dist/, the root is dist's parent, where src/ (migrations, the password
 * list) and dist/web are.
 */
const PROJECT_ROOT = fileURLToPath(
  new URL(import.meta.url.endsWith('.js') ? '../../../../' : '../../../', import.meta.url),
);

/** A path below the repository root, the same from the sources and from the build. */
export function fromProjectRoot(path: string): string {
  return join(PROJECT_ROOT, path);
}
