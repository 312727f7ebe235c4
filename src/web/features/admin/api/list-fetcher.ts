import { TOTAL_COUNT_HEADER } from '../../../../shared/contract/admin';
import { ApiError } from '../../../lib/api';

/** One page of an admin list and the total the server counted for the same filters. */
export interface Page<T> {
  items: T[];
  total: number;
}

export type ListParams = Record<string, string | number | undefined>;

/** Builds `?q=&status=&limit=&offset=`, leaving out empty values so "all" means no filter. */
export function listQuery(params: ListParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function errorFrom(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown } | null;
    const message = typeof body?.error === 'string' && body.error ? body.error : `HTTP ${res.status}`;
    return new ApiError(message, res.status, typeof body?.code === 'string' ? body.code : undefined, body);
  } catch {
    return new ApiError('Request failed', res.status, undefined, text);
  }
}

/**
 * GETs an admin list. The shared `api()` helper returns only the body, and the admin lists put their
 * total in the `X-Total-Count` header, so this one fetcher reads both (same error rules as `api()`).
 */
export async function fetchPage<T>(path: string, params: ListParams): Promise<Page<T>> {
  const res = await fetch(`${path}${listQuery(params)}`, {
    credentials: 'include',
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw await errorFrom(res);
  const items = (await res.json()) as T[];
  const header = res.headers.get(TOTAL_COUNT_HEADER);
  const total = header === null || header.trim() === '' ? Number.NaN : Number(header);
  return { items, total: Number.isInteger(total) && total >= 0 ? total : items.length };
}
