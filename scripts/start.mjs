// `npm start`: build whatever is missing or older than its sources, then run the compiled server.
import { ensureServerBuild, outdated, run, WEB_ENTRY, WEB_SOURCES } from './server-build.mjs';

if (outdated(WEB_ENTRY, WEB_SOURCES)) {
  console.log('Building the web app...');
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
}
// Skips what is already compressed, and catches up a web build made before precompression existed.
run('node', ['scripts/precompress.mjs', 'dist/web']);
ensureServerBuild();

process.env.NODE_ENV ??= 'production';
process.env.HOST ??= '127.0.0.1';
await import('../dist/src/server/main.js');
