import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import { buildApp } from '#server/app.js';
import type { Database } from '#server/db/client.js';
import type { Notifications } from '#server/db/notifications.js';
import { Metrics } from '#server/lib/metrics.js';
import { anotherHandle } from '#server/test/harness.js';
import { TestClient } from '#server/test/client.js';
import type { App } from '#server/types.js';
import { AccessEnded } from './access-ended.js';
import { readEvents, type EventReader } from './testing/event-stream.js';
import { addWorkflow, signUpUser, startRun, useRunsWorld } from './testing/fixtures.js';

/*
 * An open event stream ends when the access it was opened with ends: the API key revoked, the account
 * suspended (which revokes its keys and sessions), the session signed out. On whichever instance that
 * happens: the database tells every listening instance.
 */

const w = useRunsWorld();

const webEvents = (base: string, runId: string) => `${base}/api/executions/${runId}/events`;
const apiEvents = (base: string, runId: string) => `${base}/api/v1/runs/${runId}/events`;

async function newKey(client: TestClient): Promise<{ key: string; id: string }> {
  const res = await client.post('/api/account/api-keys', { name: 'stream' });
  expect(res.statusCode).toBe(201);
  const created = res.json<TApiKeyCreated>();
  return { key: created.key, id: created.id };
}

/** A person with a pending run (its stream stays open) and a key. */
async function personWithRun() {
  const wf = await addWorkflow(w);
  const user = await signUpUser(w.t);
  const runId = await startRun(user.client, wf.id);
  return { user, runId, ...(await newKey(user.client)) };
}

/** Opens a stream and reads its first event, so that it is open and watched. */
async function opened(url: string, headers: Record<string, string>): Promise<EventReader> {
  const stream = await readEvents(url, headers);
  expect(stream.status).toBe(200);
  expect((await stream.next())?.event).toBe('execution');
  return stream;
}

/** A raw GET /mcp stream, open once its headers came. */
async function mcpStream(base: string, key: string) {
  const res = await fetch(`${base}/mcp`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  return {
    ended: (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })(),
    cancel: () => void reader.cancel().catch(() => undefined),
  };
}

describe('run event streams of the public API', () => {
  it('end when their key is revoked, and a stream with another key goes on', async () => {
    const { user, runId, key, id } = await personWithRun();
    const other = await newKey(user.client);
    const revoked = await opened(apiEvents(w.baseUrl, runId), { authorization: `Bearer ${key}` });
    const kept = await opened(apiEvents(w.baseUrl, runId), { authorization: `Bearer ${other.key}` });
    expect((await user.client.delete(`/api/account/api-keys/${id}`)).statusCode).toBe(200);
    expect(await revoked.next()).toBeNull();
    // Still open: closing it from this side ends a read that would otherwise wait.
    const stillOpen = kept.next(60_000);
    kept.close();
    await expect(stillOpen).rejects.toThrow();
    // Reconnecting with the revoked key is refused.
    expect((await readEvents(apiEvents(w.baseUrl, runId), { authorization: `Bearer ${key}` })).status).toBe(
      401,
    );
  });

  it('end when the account is suspended', async () => {
    const { user, runId, key } = await personWithRun();
    const stream = await opened(apiEvents(w.baseUrl, runId), { authorization: `Bearer ${key}` });
    const web = await opened(webEvents(w.baseUrl, runId), { cookie: user.client.cookie! });
    expect(
      (await w.admin.patch(`/api/admin/users/${user.id}`, { accountStatus: 'suspended' })).statusCode,
    ).toBe(200);
    expect(await stream.next()).toBeNull();
    expect(await web.next()).toBeNull();
  });
});

describe('run event streams of the web app', () => {
  it('end when their session signs out, and not when another session of the person does', async () => {
    const { user, runId } = await personWithRun();
    const phone = new TestClient(w.t);
    const signIn = await phone.post('/api/auth/signin', { email: user.email, password: user.password });
    expect(signIn.statusCode).toBe(200);
    const here = await opened(webEvents(w.baseUrl, runId), { cookie: user.client.cookie! });
    const there = await opened(webEvents(w.baseUrl, runId), { cookie: phone.cookie! });
    expect((await phone.post('/api/auth/signout')).statusCode).toBeLessThan(300);
    expect(await there.next()).toBeNull();
    // Still open: closing it from this side ends a read that would otherwise wait.
    const stillOpen = here.next(60_000);
    here.close();
    await expect(stillOpen).rejects.toThrow();
  });
});

describe('MCP streams', () => {
  it('end when their key is revoked', async () => {
    const { user, key, id } = await personWithRun();
    const stream = await mcpStream(w.baseUrl, key);
    expect((await user.client.delete(`/api/account/api-keys/${id}`)).statusCode).toBe(200);
    expect(await stream.ended).toBe(true);
  });
});

describe('on another instance', () => {
  let other: App;
  let otherDatabase: Database;
  let otherUrl: string;
  beforeAll(async () => {
    otherDatabase = await anotherHandle(w.t.database);
    other = await buildApp(
      { ...w.t.deps, database: otherDatabase, db: otherDatabase.db, metrics: new Metrics() },
      { logger: false },
    );
    await other.listen({ port: 0, host: '127.0.0.1' });
    const address = other.server.address();
    otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
  });

  it('streams end when the key is revoked through this one', async () => {
    const { user, runId, key, id } = await personWithRun();
    const events = await opened(apiEvents(otherUrl, runId), { authorization: `Bearer ${key}` });
    const mcp = await mcpStream(otherUrl, key);
    expect((await user.client.delete(`/api/account/api-keys/${id}`)).statusCode).toBe(200);
    expect(await events.next()).toBeNull();
    expect(await mcp.ended).toBe(true);
  });
});

/** Notifications the test sends by hand. */
function fakeNotifications() {
  const listeners = new Map<string, (payload: string) => void>();
  const lost = new Set<(err: Error) => void>();
  const listening = new Set<() => void>();
  const notifications: Notifications = {
    listen: (channel, fn) => {
      listeners.set(channel, fn);
      return () => listeners.delete(channel);
    },
    onListening: (fn) => {
      listening.add(fn);
      return () => listening.delete(fn);
    },
    onLost: (fn) => {
      lost.add(fn);
      return () => lost.delete(fn);
    },
    close: async () => undefined,
  };
  return {
    notifications,
    send: (payload: string) => listeners.get('access_ended')?.(payload),
    lose: () => lost.forEach((fn) => fn(new Error('connection lost'))),
    relisten: () => listening.forEach((fn) => fn()),
  };
}

describe('AccessEnded', () => {
  it('ends the streams of the credential a notification names, once, and no other', () => {
    const fake = fakeNotifications();
    const access = new AccessEnded(fake.notifications);
    const ended: string[] = [];
    access.watch('key:a', () => ended.push('a1'));
    access.watch('key:a', () => ended.push('a2'));
    access.watch('session:a', () => ended.push('session a'));
    const stop = access.watch('key:b', () => ended.push('b'));
    fake.send('key:a');
    fake.send('key:a');
    expect(ended).toEqual(['a1', 'a2']);
    stop();
    fake.send('key:b');
    expect(ended).toEqual(['a1', 'a2']);
    expect(access.size).toBe(1);
  });

  it('ends every stream when the listening connection is lost, and those opened meanwhile once it is back', () => {
    const fake = fakeNotifications();
    const access = new AccessEnded(fake.notifications);
    const ended: string[] = [];
    access.watch('key:a', () => ended.push('before'));
    fake.relisten(); // the first listening ends nothing
    expect(ended).toEqual([]);
    fake.lose();
    access.watch('session:s', () => ended.push('meanwhile'));
    fake.relisten();
    expect(ended).toEqual(['before', 'meanwhile']);
    expect(access.size).toBe(0);
  });
});
