import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The API docs page (@fastify/swagger-ui) loads about 2.5 MB of scripts and style sheets from the package. The
// web build copies them (vite.config.ts) so that the build's precompression covers them too, and docs.ts
// serves the copies by content negotiation, as the web app's own files are served.

const packageJson = createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json');

/** The package's own folder of the page's files. */
export const SWAGGER_UI_SOURCE_DIR = join(dirname(packageJson), 'static');

/**
 * The folder of the web build that holds the copies, named by the package's version: a build made with
 * another version is not used (the page's initializer script comes from the installed package).
 */
export const SWAGGER_UI_BUILD_FOLDER = `swagger-ui-${(JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version}`;

/**
 * The files copied: all of the package's folder but its index.html, whose address the package answers itself
 * (with a redirect to the page it builds).
 */
export function swaggerUiFiles(): string[] {
  return readdirSync(SWAGGER_UI_SOURCE_DIR, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'index.html')
    .map((entry) => entry.name);
}
