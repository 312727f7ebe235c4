import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  addVary,
  COMPRESS_MIN_CHARS,
  compressForRequest,
  negotiateEncoding,
} from '../lib/content-encoding.js';
import type { App } from '../types.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Whether this answer is JSON worth compressing; sets Vary when the answer depends on Accept-Encoding. */
function compressible(reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  // A string's length in UTF-16 units is at most its length in UTF-8 bytes: close enough for a threshold.
  if (payload.length < COMPRESS_MIN_CHARS || reply.hasHeader('content-encoding')) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && JSON_TYPE.test(type);
}

function compressJson(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload?: unknown) => void,
): void {
  if (!compressible(reply, payload)) {
    done(null, payload);
    return;
  }
  addVary(reply, 'Accept-Encoding');
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) {
    done(null, payload);
    return;
  }
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const send = (compressed: Buffer) => {
    void reply.header('content-encoding', encoding).removeHeader('content-length');
    // The same strong ETag on two codings would let a cache answer one with the other's bytes.
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && etag.startsWith('"')) void reply.header('etag', `W/${etag}`);
    done(null, compressed);
  };
  const compressed = compressForRequest(body, encoding);
  if (Buffer.isBuffer(compressed)) send(compressed);
  else compressed.then(send, (err: Error) => done(err));
}

/**
 * Compresses JSON answers of 1 kB and more (brotli, else gzip) for clients that accept it, except for a Range
 * request. Streams are left
 * alone: the run's server-sent events and the MCP answers write to the socket themselves (hijacked), and files
 * are sent as they are. An answer that already carries a Content-Encoding (the catalogue's precompressed
 * snapshot) passes through.
 */
export function registerCompression(app: App): void {
  // A Range names bytes of the uncompressed answer: such a request (a resumed download, a media seek) gets its
  // range of the file itself (the web app's files) or the whole answer uncompressed, never a slice of
  // compressed bytes that a client could not decode alone. One header lookup for requests without a Range.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers.range !== undefined) delete request.headers['accept-encoding'];
    done();
  });
  app.addHook('onSend', compressJson);
}
