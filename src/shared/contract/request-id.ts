/**
 * What a request id may look like: a short token (a UUID, nginx's 32 hex digits, a vendor's trace id), nothing
 * that could break a log line, a header or a sentence it is shown in, or bloat every line it is written to. The
 * server keeps a trusted proxy's id only when it matches; the web app shows an error's id only when it matches.
 * Free of zod, so the web's first screens can import it.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
