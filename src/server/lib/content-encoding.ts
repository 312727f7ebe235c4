import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';

/** Smaller answers gain less than a compressor's start costs (and fit one packet either way). */
export const COMPRESS_MIN_CHARS = 1024;

/** The content codings this server sends; anything else is answered uncompressed (identity). */
export type Encoding = 'br' | 'gzip';

const NEGOTIATED = new Map<string, Encoding | null>();
/** Clients send a handful of distinct headers; the cap only stops a client that varies it from growing this. */
const MAX_REMEMBERED = 64;

function qOf(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name?.trim().toLowerCase() === 'q') {
      const q = Number(value?.trim());
      return Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 1;
    }
  }
  return 1;
}

function parse(header: string): Encoding | null {
  const q: Record<string, number> = {};
  for (const item of header.split(',')) {
    const [token, ...params] = item.split(';');
    const name = token?.trim().toLowerCase();
    if (name) q[name] = qOf(params);
  }
  const star = q['*'];
  const br = q.br ?? star ?? 0;
  const gz = q.gzip ?? q['x-gzip'] ?? star ?? 0;
  const best = Math.max(br, gz);
  // Identity is acceptable unless refused; a client may still rank it above the codings it lists.
  const identity = q.identity ?? star ?? 0;
  if (best <= 0 || identity > best) return null;
  // Equal weights: brotli, the smaller.
  return br >= gz ? 'br' : 'gzip';
}

/**
 * The coding to answer with for an Accept-Encoding header: the acceptable one (q > 0) the client weighs
 * highest, brotli on a tie, none (identity) without the header or when nothing we send is acceptable.
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (header === undefined) return null;
  const text = Array.isArray(header) ? header.join(',') : header;
  const known = NEGOTIATED.get(text);
  if (known !== undefined) return known;
  const encoding = parse(text);
  if (NEGOTIATED.size >= MAX_REMEMBERED) NEGOTIATED.clear();
  NEGOTIATED.set(text, encoding);
  return encoding;
}

/** Adds a request header name to Vary, once. */
export function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    void reply.header('vary', name);
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const lower = name.toLowerCase();
  if (value.split(',').some((t) => ['*', lower].includes(t.trim().toLowerCase()))) return;
  void reply.header('vary', `${value}, ${name}`);
}

/**
 * Levels for answers compressed per request: brotli 4 and gzip 6 cost about 0.1 ms for 20 kB of JSON and
 * shrink it about tenfold; brotli's top levels cost hundreds of times more for a tenth fewer bytes.
 */
const BROTLI_PER_REQUEST = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const GZIP_PER_REQUEST = { level: 6 };
/** Above this, compression leaves the event loop for the thread pool instead of holding other requests. */
const SYNC_LIMIT = 64 * 1024;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compresses one answer's bytes with the per-request levels: at once when small, else in the thread pool. */
export function compressForRequest(body: Buffer, encoding: Encoding): Buffer | Promise<Buffer> {
  if (body.length <= SYNC_LIMIT) {
    return encoding === 'br'
      ? brotliCompressSync(body, BROTLI_PER_REQUEST)
      : gzipSync(body, GZIP_PER_REQUEST);
  }
  return encoding === 'br' ? brotliAsync(body, BROTLI_PER_REQUEST) : gzipAsync(body, GZIP_PER_REQUEST);
}

/** Bytes up to which a cached answer gets brotli's best level (about 50 ms for 25 kB, off the event loop). */
const BEST_LEVEL_LIMIT = 128 * 1024;

/** Both codings of bytes that are compressed once and sent many times (a cached snapshot). */
export async function compressOnce(body: Buffer): Promise<Record<Encoding, Buffer>> {
  const quality = body.length <= BEST_LEVEL_LIMIT ? constants.BROTLI_MAX_QUALITY : 6;
  const [br, gz] = await Promise.all([
    brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}
