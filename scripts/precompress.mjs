// Writes `<file>.br` and `<file>.gz` beside every compressible file of a built web app, so the server sends
// ready bytes (plugins/web.ts) instead of compressing on each request or sending them uncompressed.
// Usage: node scripts/precompress.mjs <webDir>. Run by `npm run build`, `npm start`, the journeys' server and
// the benchmarks after `vite build`. A file whose .br and .gz are newer than it is skipped, so running it on
// an unchanged build costs a few stat calls.
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats only: images other than SVG and fonts (woff2) are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map|wasm)$/;
/** Below this a compressed copy saves less than the headers that announce it. */
const MIN_BYTES = 256;
/**
 * Above this, brotli's highest quality costs seconds a file for little: the API docs page's 1.7 MB script
 * takes 14 s at 11 on a busy machine against 0.7 s at 9, for 9% fewer bytes. The app's own files are far
 * below it.
 */
const LARGE_BYTES = 1_000_000;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) yield path;
  }
}

async function mtime(path) {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return -1;
  }
}

/** Writes `path + ext` when it saves at least a tenth of the bytes; otherwise removes a stale one. */
async function writeSmaller(path, ext, original, compressed) {
  if (compressed.length <= original.length * 0.9) {
    await writeFile(path + ext, compressed);
    return compressed.length;
  }
  await unlink(path + ext).catch(() => undefined);
  return original.length;
}

/** Precompresses every compressible file under `dir`; answers the totals in bytes. */
export async function precompress(dir) {
  const totals = { files: 0, identity: 0, br: 0, gzip: 0 };
  const jobs = [];
  for await (const path of files(dir)) {
    jobs.push(
      (async () => {
        const source = await stat(path);
        const body = await readFile(path);
        totals.files++;
        totals.identity += body.length;
        if (body.length < MIN_BYTES) {
          totals.br += body.length;
          totals.gzip += body.length;
          return;
        }
        const [brTime, gzTime] = await Promise.all([mtime(`${path}.br`), mtime(`${path}.gz`)]);
        const fresh = brTime >= source.mtimeMs && gzTime >= source.mtimeMs;
        // Highest levels (but for very large files): this runs once per build, and every visitor gets the
        // smaller bytes.
        const [br, gzipped] = await Promise.all([
          fresh
            ? readFile(`${path}.br`)
            : brotli(body, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]:
                    body.length > LARGE_BYTES ? 9 : constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
                },
              }),
          fresh ? readFile(`${path}.gz`) : gz(body, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        // Awaited before adding: `totals.br += await x` would read totals.br before the wait and lose updates.
        const [brBytes, gzipBytes] = fresh
          ? [br.length, gzipped.length]
          : await Promise.all([
              writeSmaller(path, '.br', body, br),
              writeSmaller(path, '.gz', body, gzipped),
            ]);
        totals.br += brBytes;
        totals.gzip += gzipBytes;
      })(),
    );
  }
  await Promise.all(jobs);
  return totals;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/precompress.mjs <webDir>');
    process.exit(2);
  }
  const t = await precompress(dir);
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  console.log(
    `precompress: ${t.files} files in ${dir}: ${kb(t.identity)}, brotli ${kb(t.br)}, gzip ${kb(t.gzip)}`,
  );
}
