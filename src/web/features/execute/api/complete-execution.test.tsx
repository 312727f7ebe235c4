// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCompleteExecution } from './complete-execution';

const RUN_ID = '6f1c2a9e-1111-4222-8333-444455556666';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const run = (status: string) => ({ id: RUN_ID, status });

/** The hook against a fake server: `complete` answers the POST, `current` the run's GET. */
function sendAnswers(complete: () => Response | Promise<Response>, current: () => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${path}`);
      return path.endsWith('/complete') ? complete() : current();
    }),
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => useCompleteExecution(RUN_ID), { wrapper });
  result.current.mutate({ responses: [] });
  return { result, calls };
}

const proxyDown = () => new Response('<html>502 Bad Gateway</html>', { status: 502 });

describe('sending the answers', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('follows the run when the answer was lost but the run went out (the instance went away mid-call)', async () => {
    const { result, calls } = sendAnswers(proxyDown, () => json(200, run('running')));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ status: 'running' });
    expect(calls).toEqual([`POST /api/executions/${RUN_ID}/complete`, `GET /api/executions/${RUN_ID}`]);
  });

  it('the same when the connection itself dropped', async () => {
    const { result } = sendAnswers(
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => json(200, run('completed')),
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ status: 'completed' });
  });

  it('fails when the run is still pending: nothing went out, the person may send again', async () => {
    const { result } = sendAnswers(proxyDown, () => json(200, run('pending')));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({ status: 502 });
  });

  it("takes the app's own refusal as it is, without asking about the run", async () => {
    const { result, calls } = sendAnswers(
      () => json(502, { error: 'The workflow did not answer', code: 'BAD_GATEWAY' }),
      () => json(200, run('running')),
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({ status: 502, code: 'BAD_GATEWAY' });
    expect(calls).toHaveLength(1);
  });
});
