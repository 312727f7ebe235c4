// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '#web/lib/testing/fake-event-source';
import { useRunDetail } from './get-run-detail';

const RUN_ID = '6f1c2a9e-1111-4222-8333-444455556666';
const detail = (status: string, entries: number) => ({
  id: RUN_ID,
  status,
  log: Array.from({ length: entries }, (_, i) => ({ kind: 'call', attempt: i + 1 })),
});
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function render() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useRunDetail(RUN_ID), { wrapper });
}

describe("the admin's run detail", () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    FakeEventSource.opened = [];
  });

  it('follows an open run through its event stream, each log entry as it comes, and reads it once more at the end', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const answers = [detail('running', 2), detail('completed', 5)];
    const fetch = vi.fn(async () => json(answers.shift() ?? detail('completed', 5)));
    vi.stubGlobal('fetch', fetch);
    const { result } = render();
    await waitFor(() => expect(result.current.data?.log).toHaveLength(2));
    const [stream] = FakeEventSource.opened;
    expect(stream?.url).toBe(`/api/admin/executions/${RUN_ID}/events`);

    act(() => stream?.push(detail('running', 3)));
    await waitFor(() => expect(result.current.data?.log).toHaveLength(3));
    // Another run's event is not this one's.
    act(() => stream?.push({ ...detail('failed', 9), id: 'another' }));
    expect(result.current.data).toMatchObject({ status: 'running' });
    act(() => stream?.push(detail('completed', 4)));
    // The stream closes; the detail is read again for the entry written after the ending.
    await waitFor(() => expect(result.current.data?.log).toHaveLength(5));
    expect(stream?.readyState).toBe(FakeEventSource.CLOSED);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('opens no stream for an ended run', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(detail('failed', 2))),
    );
    const { result } = render();
    await waitFor(() => expect(result.current.data?.status).toBe('failed'));
    expect(FakeEventSource.opened).toHaveLength(0);
  });

  it('reads an open run again every 2 s in a browser without EventSource', async () => {
    vi.stubGlobal('EventSource', undefined);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [detail('running', 1), detail('running', 2)];
    const fetch = vi.fn(async () => json(answers.shift() ?? detail('completed', 3)));
    vi.stubGlobal('fetch', fetch);
    const { result } = render();
    await waitFor(() => expect(result.current.data?.log).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(result.current.data?.log).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(result.current.data?.status).toBe('completed'));
    const calls = fetch.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    // Ended: read once more (the last entry), then no more.
    expect(fetch.mock.calls.length).toBeLessThanOrEqual(calls + 1);
  });
});
