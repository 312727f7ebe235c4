import type { TestApp } from './harness.js';

/** What a caller learns of a request to a stream that stays open: its status, headers and (if not a stream) body. */
export interface StreamAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  json<T = unknown>(): T;
}

/** Routes whose successful answer is an event stream that stays open until the reader leaves. */
export const OPEN_STREAM_ROUTES = ['/api/notifications/events'];

const addresses = new WeakMap<TestApp, Promise<string>>();

/**
 * Sends a GET over real HTTP and reads only the answer's head when it is an event stream, then goes away as a
 * closed tab does: an injected request would wait for the end of a stream that never ends by itself.
 */
export async function requestOpenStream(
  t: TestApp,
  url: string,
  headers: Record<string, string> = {},
): Promise<StreamAnswer> {
  let address = addresses.get(t);
  if (!address) addresses.set(t, (address = t.app.listen({ port: 0, host: '127.0.0.1' })));
  const controller = new AbortController();
  const res = await fetch(`${await address}${url}`, { headers, signal: controller.signal });
  const isStream = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  let body = '';
  if (isStream) controller.abort();
  else body = await res.text();
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers.entries()),
    body,
    json: <T>() => JSON.parse(body) as T,
  };
}
