import { isErrorCode, type ErrorCode } from '#shared/contract/error-codes';

/**
 * An answer that was not OK: the contract's code when the server sent one this client knows (undefined
 * otherwise), and the server's text as the message, shown only when the code is unknown.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | undefined,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export async function errorFrom(res: Response): Promise<ApiError> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError('Request failed', res.status, undefined, text);
  }
  const record = (body && typeof body === 'object' ? body : {}) as { error?: unknown; code?: unknown };
  const message = typeof record.error === 'string' && record.error ? record.error : `HTTP ${res.status}`;
  return new ApiError(message, res.status, isErrorCode(record.code) ? record.code : undefined, body);
}

/** One page of a list and the total the server counted for the same filters (its X-Total-Count header). */
export interface ApiPage<T> {
  items: T[];
  total: number;
}

/**
 * GETs a paged list: the body is the page, the total travels in X-Total-Count (same error rules as `api`).
 * A missing or unreadable header falls back to the number of rows received.
 */
export async function apiPage<T>(path: string): Promise<ApiPage<T>> {
  const res = await fetch(path, { credentials: 'include', headers: { accept: 'application/json' } });
  if (!res.ok) throw await errorFrom(res);
  const items = (await res.json()) as T[];
  const header = res.headers.get('x-total-count');
  const total = header === null || header.trim() === '' ? Number.NaN : Number(header);
  return { items, total: Number.isInteger(total) && total >= 0 ? total : items.length };
}

/** Every call sends cookies and JSON; a non-OK answer throws an ApiError. */
export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'include',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      accept: 'application/json',
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const apiPost = <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
  api<T>(path, { method: 'POST', body: body ?? {}, ...(headers ? { headers } : {}) });
export const apiPatch = <T>(path: string, body: unknown) => api<T>(path, { method: 'PATCH', body });
export const apiDelete = <T>(path: string) => api<T>(path, { method: 'DELETE' });
