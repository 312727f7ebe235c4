import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { errorText } from '#shared/i18n/errors.js';
import { buildApp } from '#server/app.js';
import { Metrics } from '#server/lib/metrics.js';
import { withConfig } from '#server/test/test-data.js';
import type { Notifications } from '#server/db/notifications.js';
import { RunEvents } from './run-events.js';
import { readEvents } from './testing/event-stream.js';
import {
  addWorkflow,
  ANSWERS,
  completeAsync,
  newApiKey,
  postResult,
  signUpUser,
  startRun,
  useRunsWorld,
} from './testing/fixtures.js';

const w = useRunsWorld();

const webEvents = (runId: string) => `${w.baseUrl}/api/executions/${runId}/events`;
const apiEvents = (runId: string) => `${w.baseUrl}/api/v1/runs/${runId}/events`;
const runOf = (data: string | undefined) => JSON.parse(data ?? 'null') as Record<string, unknown>;

describe('run event streams', () => {
  it('resume with Last-Event-ID: a reader is sent only what it has not seen', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const { call, completion } = await completeAsync(w, user.client, runId);
    const post = (body: object) =>
      postResult(w, { execution_id: runId, secret_token: call.body.secret_token, ...body });
    const cookie = { cookie: user.client.cookie! };

    const first = await readEvents(webEvents(runId), cookie);
    // Taken over from Fastify, the stream keeps the headers every answer gets: its request id and the API's
    // security set.
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(first.headers.get('x-frame-options')).toBe('DENY');
    const running = await first.next();
    expect(running?.event).toBe('execution');
    expect(runOf(running?.data)).toMatchObject({ id: runId, status: 'running', progressMessage: null });
    expect(running?.id).toMatch(/^[\w-]{22}$/);
    first.close();

    // Nothing changed while it was away: the stream sends nothing until the run changes, then that change.
    const again = await readEvents(webEvents(runId), { ...cookie, 'last-event-id': running!.id! });
    expect(again.status).toBe(200);
    await post({ status: 'running', output_data: { message: 'Paso 1' } });
    const step1 = await again.next();
    expect(runOf(step1?.data)).toMatchObject({ status: 'running', progressMessage: 'Paso 1' });
    again.close();

    // Changed while it was away: the stream starts with the run as it is now.
    await post({ status: 'running', output_data: { message: 'Paso 2' } });
    const resumed = await readEvents(webEvents(runId), { ...cookie, 'last-event-id': step1!.id! });
    expect(runOf((await resumed.next())?.data)).toMatchObject({ progressMessage: 'Paso 2' });
    await post({ status: 'completed', output_data: { message: 'fin' } });
    const done = await resumed.next();
    expect(runOf(done?.data)).toMatchObject({ status: 'completed', outputData: { message: 'fin' } });
    expect(await resumed.next()).toBeNull();
    expect((await completion).statusCode).toBe(200);

    // Ended, and its last state already seen: 204, which tells EventSource to stop reconnecting.
    const over = await readEvents(webEvents(runId), { ...cookie, 'last-event-id': done!.id! });
    expect(over.status).toBe(204);
    // From an older id: the final state, then the end.
    const late = await readEvents(webEvents(runId), { ...cookie, 'last-event-id': running!.id! });
    expect(runOf((await late.next())?.data)).toMatchObject({ status: 'completed' });
    expect(await late.next()).toBeNull();
    // The public API's stream is the same stream, with the same ids.
    const key = { authorization: `Bearer ${await newApiKey(user.client)}` };
    expect((await readEvents(apiEvents(runId), { ...key, 'last-event-id': done!.id! })).status).toBe(204);
    const api = await readEvents(apiEvents(runId), key);
    expect((await api.next())?.id).toBe(done!.id);
    // A malformed id is refused before anything is read.
    const long = await readEvents(webEvents(runId), { ...cookie, 'last-event-id': 'x'.repeat(65) });
    expect(long.status).toBe(400);
  });

  it('refuses a stream past max_event_streams_per_user with 429 in the reader’s language, web and API counted together', async () => {
    const open: Array<{ close(): void }> = [];
    await withConfig(w.t, 'max_event_streams_per_user', 2, async () => {
      try {
        const wf = await addWorkflow(w);
        const user = await signUpUser(w.t);
        const other = await signUpUser(w.t);
        // Pending runs: their streams stay open.
        const [a, b] = [await startRun(user.client, wf.id), await startRun(user.client, wf.id)];
        const cookie = { cookie: user.client.cookie! };
        const key = { authorization: `Bearer ${await newApiKey(user.client)}` };

        const web = await readEvents(webEvents(a), cookie);
        open.push(web);
        expect(web.status).toBe(200);
        await web.next();
        const api = await readEvents(apiEvents(b), key);
        open.push(api);
        expect(api.status).toBe(200);
        await api.next();

        const refused = await readEvents(webEvents(b), { ...cookie, 'accept-language': 'es-ES,es;q=0.9' });
        expect(refused.status).toBe(429);
        expect(JSON.parse(await refused.text())).toEqual({
          code: 'RATE_LIMITED',
          error: errorText('es', 'RATE_LIMITED', 'eventStreams', { max: 2 }),
          key: 'eventStreams',
          params: { max: 2 },
        });
        expect(errorText('es', 'RATE_LIMITED', 'eventStreams', { max: 2 })).toContain('2');
        const refusedApi = await readEvents(apiEvents(a), key);
        expect(refusedApi.status).toBe(429);
        expect(JSON.parse(await refusedApi.text())).toMatchObject({
          code: 'RATE_LIMITED',
          error: errorText('en', 'RATE_LIMITED', 'eventStreams', { max: 2 }),
        });

        // Someone else is not held back by it.
        const otherRun = await startRun(other.client, wf.id);
        const theirs = await readEvents(webEvents(otherRun), { cookie: other.client.cookie! });
        open.push(theirs);
        expect(theirs.status).toBe(200);

        // A stream the reader closes gives its place back (once the server has noticed the close).
        web.close();
        const reopened = await vi.waitFor(
          async () => {
            const stream = await readEvents(webEvents(a), cookie);
            if (stream.status === 200) return stream;
            stream.close();
            throw new Error(`the stream is still refused: ${stream.status}`);
          },
          { timeout: 10_000 },
        );
        open.push(reopened);
      } finally {
        for (const stream of open) stream.close();
      }
    });
  });

  it('leaves no listener behind: many streams and waits in a row raise no leak warning', async () => {
    // An instance of its own, so that its shutdown signals start with no listeners.
    const app = await buildApp({ ...w.t.deps, metrics: new Metrics() }, { logger: false });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await app.ready();
      const wf = await addWorkflow(w);
      const user = await signUpUser(w.t);
      w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { ok: true } } }));
      const ended = await startRun(user.client, wf.id);
      expect((await user.client.post(`/api/executions/${ended}/complete`, ANSWERS)).statusCode).toBe(200);
      for (let i = 0; i < 15; i++) {
        const res = await app.inject({
          method: 'GET',
          url: `/api/executions/${ended}/events`,
          headers: { cookie: user.client.cookie! },
        });
        expect(res.body).toContain('"status":"completed"');
      }
      // Streams the reader leaves while they wait.
      const pending = await startRun(user.client, wf.id);
      const origin = await app.listen({ port: 0, host: '127.0.0.1' });
      for (let i = 0; i < 12; i++) {
        const stream = await readEvents(`${origin}/api/executions/${pending}/events`, {
          cookie: user.client.cookie!,
        });
        await stream.next();
        stream.close();
      }
      // A leak warning is emitted on the tick after the listener past the limit is added, long before the
      // close below has finished.
    } finally {
      process.off('warning', onWarning);
      await app.close();
    }
    expect(warnings.map((x) => `${x.name}: ${x.message}`)).toEqual([]);
  });
});

/** Notifications under the test's control, as the database's listening connection would deliver them. */
function fakeNotifications() {
  const handlers = new Map<string, (payload: string) => void>();
  const listening = new Set<() => void>();
  const notifications: Notifications = {
    listen: (channel, fn) => {
      handlers.set(channel, fn);
      return () => handlers.delete(channel);
    },
    onListening: (fn) => {
      listening.add(fn);
      return () => listening.delete(fn);
    },
    onLost: () => () => undefined,
    close: async () => undefined,
  };
  return {
    notifications,
    send: (channel: string, payload: string) => handlers.get(channel)?.(payload),
    reconnected: () => listening.forEach((fn) => fn()),
  };
}

describe('RunEvents', () => {
  it('wakes the watches of the run a notification names, and no other', async () => {
    const fake = fakeNotifications();
    const events = new RunEvents(fake.notifications);
    const a1 = events.watch('a');
    const a2 = events.watch('a');
    const b = events.watch('b');
    const waits = [a1.changed(5_000), a2.changed(5_000), b.changed(30)];
    fake.send('run_changed', 'a');
    expect(await Promise.all(waits)).toEqual([true, true, false]);
    // A change while nobody waited is kept for the next wait.
    fake.send('run_changed', 'b');
    expect(await b.changed(5_000)).toBe(true);
    expect(await b.changed(10)).toBe(false);
    for (const watch of [a1, a2, b]) watch.close();
    // A closed watch is told nothing more.
    fake.send('run_changed', 'a');
    expect(await a1.changed(10)).toBe(false);
  });

  it('wakes every watch once when listening starts again, since notifications were missed meanwhile', async () => {
    const fake = fakeNotifications();
    const events = new RunEvents(fake.notifications);
    const watches = ['a', 'b', 'c'].map((id) => events.watch(id));
    const waits = watches.map((watch) => watch.changed(5_000));
    fake.reconnected();
    expect(await Promise.all(waits)).toEqual([true, true, true]);
    expect(await Promise.all(watches.map((watch) => watch.changed(10)))).toEqual([false, false, false]);
  });

  it('ends a wait when its signal aborts, and takes its listener away whichever way the wait ends', async () => {
    const events = new RunEvents(fakeNotifications().notifications);
    const watch = events.watch('a');
    const stop = new AbortController();
    const other = new AbortController();
    for (let i = 0; i < 20; i++) expect(await watch.changed(1, stop.signal, other.signal)).toBe(false);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    const waiting = watch.changed(5_000, stop.signal, other.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    expect(await waiting).toBe(false);
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('counts each person’s open streams up to the bound, and a place given back twice counts once', () => {
    const events = new RunEvents(fakeNotifications().notifications);
    const first = events.openStream('ana', 2);
    const second = events.openStream('ana', 2);
    expect(first && second).toBeTruthy();
    expect(events.openStream('ana', 2)).toBeNull();
    expect(events.openStream('ben', 2)).not.toBeNull();
    first!();
    first!();
    expect(events.streamCount).toBe(2);
    expect(events.openStream('ana', 2)).not.toBeNull();
    expect(events.openStream('ana', 2)).toBeNull();
  });
});
