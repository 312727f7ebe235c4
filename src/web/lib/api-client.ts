import { isErrorCode, type ErrorCode } from '#shared/contract/error-codes';
import type { paths } from './api-paths';

/*
 * The web's one way to call the server. Paths, bodies and answers come from api-paths.ts, generated from the
 * server's OpenAPI document (`npm run gen:api`), so renaming a route or changing what it takes or answers
 * breaks the web's type check instead of a screen. The error rules live here and in error-key.ts only:
 * - every call sends the session cookie and asks for JSON; the browser adds the Origin header the server's
 *   cross-site check reads (no token of our own is needed);
 * - a non-OK answer throws an ApiError with the contract's code, the case of its text (`key`) and the body;
 *   screens word it with error-key.ts, never with the server's English;
 * - a 401 anywhere ends the cached session (query-client.ts), whoever made the call;
 * - a 5xx body's request id is shown with its message (error-key.ts) so a person can quote it.
 * A new route: add it on the server, run `npm run gen:api`, then call it with `api.get('/api/...')` & co.
 */

/**
 * An answer that was not OK: the contract's code when the server sent one this client knows (undefined
 * otherwise), the case of its text (`key`, with its `params`), and the server's text as the message, shown
 * only when the code is unknown.
 */
export class ApiError extends Error {
  readonly key: string | undefined;
  readonly params: Readonly<Record<string, string | number>> | undefined;
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | undefined,
    readonly body: unknown,
  ) {
    super(message);
    const record = (body && typeof body === 'object' ? body : {}) as { key?: unknown; params?: unknown };
    this.key = typeof record.key === 'string' && record.key ? record.key : undefined;
    this.params = textParams(record.params);
  }
}

/** The values of an error text (`{{max}}`) from a body: its string and number entries, or nothing. */
export function textParams(value: unknown): Record<string, string | number> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string | number] =>
      typeof entry[1] === 'string' || typeof entry[1] === 'number',
  );
  return Object.fromEntries(entries);
}

/** The ApiError of a failed answer whose text is `text` (spec section 8: not JSON, no error field). */
export function apiErrorFrom(status: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError('Request failed', status, undefined, text);
  }
  const record = (body && typeof body === 'object' ? body : {}) as { error?: unknown; code?: unknown };
  const message = typeof record.error === 'string' && record.error ? record.error : `HTTP ${status}`;
  return new ApiError(message, status, isErrorCode(record.code) ? record.code : undefined, body);
}

async function errorFrom(res: Response): Promise<ApiError> {
  return apiErrorFrom(res.status, await res.text());
}

// ---- The contract's types, per path and method ----

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The paths that answer `M`. */
type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

type SuccessStatus = 200 | 201 | 202 | 203 | 204;
type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type AnswerOfOperation<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends SuccessStatus ? JsonContent<R[S]> : never }[keyof R]
  : never;

/** What `M path` answers when it succeeds (its JSON body; undefined for an answer without one). */
export type ApiAnswer<P extends keyof paths, M extends Method = 'get'> = AnswerOfOperation<Operation<P, M>>;

/** The JSON body `M path` takes. */
export type ApiBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters `M path` takes. */
export type ApiQuery<P extends keyof paths, M extends Method = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type PathOption<O> = O extends { parameters: { path: infer X extends object } } ? { path: X } : unknown;
type QueryOption<O> = O extends { parameters: { query: infer X extends object } }
  ? { query: X }
  : O extends { parameters: { query?: infer X } }
    ? [NonNullable<X>] extends [never]
      ? unknown
      : { query?: NonNullable<X> }
    : unknown;
type BodyOption<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? [B] extends [never]
      ? unknown
      : { body?: B }
    : unknown;

/** The options of one call: the path's parameters, the query, the body, as the route declares them. */
type CallOptions<O> = PathOption<O> &
  QueryOption<O> &
  BodyOption<O> & { headers?: Record<string, string>; signal?: AbortSignal };
type Args<O> = object extends CallOptions<O> ? [options?: CallOptions<O>] : [options: CallOptions<O>];

interface LooseOptions {
  path?: object;
  query?: object;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

// ---- The calls ----

/** `/api/x/{id}` with `{ id }` filled in (encoded); the query's empty values are left out ("all" is no filter). */
function apiUrl(path: string, options: { path?: object; query?: object } = {}): string {
  const params = (options.path ?? {}) as Record<string, unknown>;
  const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

async function send(method: string, path: string, options: LooseOptions = {}): Promise<Response> {
  // A body-less POST still sends `{}`: the routes' schemas expect a JSON object.
  const body = options.body ?? (method === 'POST' ? {} : undefined);
  const res = await fetch(apiUrl(path, options), {
    method,
    credentials: 'include',
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      accept: 'application/json',
      ...options.headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!res.ok) throw await errorFrom(res);
  return res;
}

async function call(method: string, path: string, options?: LooseOptions): Promise<unknown> {
  const res = await send(method, path, options);
  if (res.status === 204) return undefined;
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** One page of a list and the total the server counted for the same filters (its X-Total-Count header). */
export interface ApiPage<T> {
  items: T[];
  total: number;
}

type Item<A> = A extends ReadonlyArray<infer T> ? T : never;

/**
 * The typed calls: `api.get('/api/executions/{id}', { path: { id } })` answers what the route declares, and a
 * path, parameter or body the contract does not have does not compile.
 */
export const api = {
  get: <P extends PathOf<'get'>>(path: P, ...[options]: Args<Operation<P, 'get'>>) =>
    call('GET', path, options as LooseOptions) as Promise<ApiAnswer<P, 'get'>>,
  post: <P extends PathOf<'post'>>(path: P, ...[options]: Args<Operation<P, 'post'>>) =>
    call('POST', path, options as LooseOptions) as Promise<ApiAnswer<P, 'post'>>,
  put: <P extends PathOf<'put'>>(path: P, ...[options]: Args<Operation<P, 'put'>>) =>
    call('PUT', path, options as LooseOptions) as Promise<ApiAnswer<P, 'put'>>,
  patch: <P extends PathOf<'patch'>>(path: P, ...[options]: Args<Operation<P, 'patch'>>) =>
    call('PATCH', path, options as LooseOptions) as Promise<ApiAnswer<P, 'patch'>>,
  delete: <P extends PathOf<'delete'>>(path: P, ...[options]: Args<Operation<P, 'delete'>>) =>
    call('DELETE', path, options as LooseOptions) as Promise<ApiAnswer<P, 'delete'>>,

  /**
   * GETs a paged list: the body is the page, the total travels in X-Total-Count. A missing or unreadable
   * header falls back to the number of rows received.
   */
  page: async <P extends PathOf<'get'>>(
    path: P,
    ...[options]: Args<Operation<P, 'get'>>
  ): Promise<ApiPage<Item<ApiAnswer<P, 'get'>>>> => {
    const res = await send('GET', path, options as LooseOptions);
    const items = (await res.json()) as Array<Item<ApiAnswer<P, 'get'>>>;
    const header = res.headers.get('x-total-count');
    const total = header === null || header.trim() === '' ? Number.NaN : Number(header);
    return { items, total: Number.isInteger(total) && total >= 0 ? total : items.length };
  },

  /**
   * POSTs and hands back the answer itself, for a route that answers a stream (a chat's reply as events):
   * same request and error rules, the body left to read.
   */
  stream: <P extends PathOf<'post'>>(path: P, ...[options]: Args<Operation<P, 'post'>>) =>
    send('POST', path, options as LooseOptions),

  /**
   * The address of a route, for what the browser itself loads or sends (an event stream, a download link, an
   * upload that reports its progress).
   */
  url: <P extends keyof paths>(path: P, options: { path?: Record<string, string> } = {}) =>
    apiUrl(path, options),
};
