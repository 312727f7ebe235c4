/**
 * The suites sign up far more people from one address (127.0.0.1) than `signups_per_ip_per_hour` allows. They
 * raise the limit the way an operator would: an admin signs in and changes the entry through the config API
 * (so the change is audited like any other). Used by the in-process harness, the real-process tests and the
 * browser journeys; it needs nothing but a way to call the API.
 */
const RAISED_SIGNUPS_PER_IP_PER_HOUR = 100_000;

interface ApiAnswer {
  status: number;
  body: unknown;
  /** The `name=value` pair of the session cookie the answer set, if any. */
  cookie: string | undefined;
}

export type ApiCall = (
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body: unknown,
  cookie: string | undefined,
) => Promise<ApiAnswer>;

export function raiseSignupLimit(
  call: ApiCall,
  admin: { email: string; password: string },
  value: number = RAISED_SIGNUPS_PER_IP_PER_HOUR,
): Promise<void> {
  return setConfigEntry(call, admin, 'signups_per_ip_per_hour', value);
}

/** Sets one live setting as an admin does, through the config API (audited); raiseSignupLimit is one use. */
export async function setConfigEntry(
  call: ApiCall,
  admin: { email: string; password: string },
  key: string,
  value: unknown,
): Promise<void> {
  const signin = await call('POST', '/api/auth/signin', admin, undefined);
  const cookie = signin.cookie;
  if (signin.status !== 200 || !cookie) {
    throw new Error(`setting ${key}: admin sign-in answered ${signin.status}`);
  }
  try {
    const list = await call('GET', '/api/admin/config', undefined, cookie);
    const entries = Array.isArray(list.body) ? (list.body as Array<{ id?: unknown; key?: unknown }>) : [];
    const entry = entries.find((e) => e.key === key);
    if (typeof entry?.id !== 'string') {
      throw new Error(`setting ${key}: no such entry (${list.status})`);
    }
    const patched = await call('PATCH', `/api/admin/config/${entry.id}`, { value }, cookie);
    if (patched.status !== 200) {
      throw new Error(`setting ${key}: PATCH answered ${patched.status}`);
    }
  } finally {
    // The session is of no further use; signing out leaves the admin's sessions as the test found them.
    await call('POST', '/api/auth/signout', {}, cookie);
  }
}

/** An ApiCall over HTTP to a running server, sending its origin as a browser on it would. */
export function fetchApi(baseUrl: string): ApiCall {
  const origin = new URL(baseUrl).origin;
  return async (method, path, body, cookie) => {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        origin,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const [setCookie] = res.headers.getSetCookie();
    return { status: res.status, body: parseJson(await res.text()), cookie: setCookie?.split(';')[0] };
  };
}

/** The body as JSON, or the text itself when it is not JSON (the status explains it). */
export function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}
