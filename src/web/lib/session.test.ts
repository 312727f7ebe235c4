// @vitest-environment jsdom
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const user = { id: 'u1', email: 'ana@example.com', fullName: 'Ana', credits: 5, isAdmin: false };

/** session.ts as a page written with this session hint in its head (none: a page from the dev server). */
async function loadPage(hint: 'none' | 'cookie' | null) {
  document.head.innerHTML = hint ? `<meta name="flujo-session" content="${hint}">` : '';
  vi.resetModules();
  return import('./session');
}

describe('the session of a page', () => {
  const fetchMock = vi.fn(() => Promise.resolve(Response.json(user)));
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockClear();
  });

  it("is not asked for on a visitor's page, and is asked for once the visitor has signed in", async () => {
    const { meQuery } = await loadPage('none');
    const client = new QueryClient();
    expect(await client.fetchQuery(meQuery)).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    // After a sign-in in another tab, or anything that asks again: the server answers.
    await client.invalidateQueries({ queryKey: meQuery.queryKey });
    expect(await client.fetchQuery({ ...meQuery, staleTime: 0 })).toEqual(user);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('is asked for when the page was sent with a session cookie, or says nothing of it', async () => {
    for (const hint of ['cookie', null] as const) {
      const { meQuery } = await loadPage(hint);
      fetchMock.mockClear();
      expect(await new QueryClient().fetchQuery(meQuery)).toEqual(user);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    }
  });
});

describe('reading the session again after a change', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("drops the page's first read when it left before the change, and takes the answer after it", async () => {
    // The first read is answered late with the state from before (an unverified address); every later read
    // sees the change.
    let answerFirst: (r: Response) => void = () => undefined;
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(() => {
        calls.push('me');
        if (calls.length === 1) return new Promise<Response>((resolve) => (answerFirst = resolve));
        return Promise.resolve(Response.json({ ...user, emailVerified: true }));
      }),
    );
    const { meQuery, refreshMe } = await loadPage('cookie');
    const client = new QueryClient();
    // A component on the page reads the session: its first read starts.
    const unsubscribe = new QueryObserver(client, meQuery).subscribe(() => undefined);
    await vi.waitFor(() => expect(calls).toHaveLength(1));

    const refreshed = refreshMe(client);
    answerFirst(Response.json({ ...user, emailVerified: false }));
    await refreshed;

    expect(calls).toHaveLength(2);
    expect(client.getQueryData(meQuery.queryKey)).toMatchObject({ emailVerified: true });
    unsubscribe();
  });
});
