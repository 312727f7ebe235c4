// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCompleteExecution } from './api/complete-execution';
import { useFollowExecution } from './use-follow-execution';
import { FakeEventSource } from '#web/lib/testing/fake-event-source';

const RUN_ID = '6f1c2a9e-1111-4222-8333-444455556666';
const run = (status: string) => ({ id: RUN_ID, status });
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('following a run while its answers go out', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    FakeEventSource.opened = [];
  });

  it('an answer read before the run ended, arriving after the stream said it ended, does not undo the end', async () => {
    // The complete call's answer is held back until the stream has said the run ended: two connections, and
    // on a busy machine the one that left first does not always arrive first.
    const completeAnswer = deferred<Response>();
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) =>
        path.endsWith('/complete') ? completeAnswer.promise : json(run('running')),
      ),
    );
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
    });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => ({ run: useFollowExecution(RUN_ID, true), complete: useCompleteExecution(RUN_ID) }),
      { wrapper },
    );
    act(() => result.current.complete.mutate({ responses: [] }));
    await waitFor(() => expect(result.current.run?.status).toBe('running'));
    const [stream] = FakeEventSource.opened;
    expect(stream?.url).toBe(`/api/executions/${RUN_ID}/events`);

    act(() => stream?.push(run('completed')));
    await waitFor(() => expect(result.current.run?.status).toBe('completed'));
    await act(async () => {
      completeAnswer.resolve(json(run('running')));
      await completeAnswer.promise;
    });
    await waitFor(() => expect(result.current.complete.isSuccess).toBe(true));
    expect(result.current.run?.status).toBe('completed');
  });
});
