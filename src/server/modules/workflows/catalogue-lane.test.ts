import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLog } from '../../plugins/access-log.js';
import { securityHeaders } from '../../plugins/security.js';
import { signInAdmin, signUpUser } from '../../test/client.js';
import { buildTestApp, createTestDatabase, TEST_ADMIN, type TestApp } from '../../test/harness.js';
import { CATALOGUE_PATH } from './catalogue.js';
import { catalogueLane, type CatalogueLaneOptions } from './catalogue-lane.js';
import { addCatalogueWorkflow } from './testing/fixtures.js';

let t: TestApp;
let appUrl: string;
let adminId: string;
const written: string[] = [];
beforeAll(async () => {
  t = await buildTestApp(
    { LOG_LEVEL: 'info' },
    { logger: { destination: { write: (line: string) => void written.push(line) } } },
  );
  appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  adminId = (await admin.get('/api/auth/me')).json().id;
  await add('First');
  await add('Second');
});
afterAll(async () => {
  await t?.close();
});

const add = (name: string, extra: Record<string, unknown> = {}) =>
  addCatalogueWorkflow(t.database.db, adminId, name, extra);

/** Request lines are written in batches, at most 20 ms after their requests; a later timer fires after. */
const afterBatch = () => new Promise<void>((resolve) => setTimeout(resolve, 25));

/** Headers that differ between any two answers (the clock, the connection), left out of comparisons. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive']);
const comparable = (res: Response) =>
  Object.fromEntries([...res.headers].filter(([name]) => !PER_ANSWER.has(name)).sort());

describe('the visitor catalogue answered before the router, in the running app', () => {
  it('answers a visitor what the route answers a signed-in user: status, headers and bytes', async () => {
    const user = await signUpUser(t);
    const visitor = await fetch(appUrl + CATALOGUE_PATH);
    const routed = await fetch(appUrl + CATALOGUE_PATH, { headers: { cookie: user.client.cookie! } });
    expect(visitor.status).toBe(200);
    expect(routed.status).toBe(200);
    expect(comparable(visitor)).toEqual(comparable(routed));
    expect(comparable(visitor)).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-cache',
      vary: 'Cookie',
    });
    const body = await visitor.text();
    expect(body).toBe(await routed.text());
    expect(JSON.parse(body).map((w: { name: { en: string } }) => w.name.en)).toEqual(
      expect.arrayContaining(['First', 'Second']),
    );

    const etag = visitor.headers.get('etag')!;
    const visitor304 = await fetch(appUrl + CATALOGUE_PATH, { headers: { 'if-none-match': etag } });
    const routed304 = await fetch(appUrl + CATALOGUE_PATH, {
      headers: { 'if-none-match': etag, cookie: user.client.cookie! },
    });
    expect(visitor304.status).toBe(304);
    expect(routed304.status).toBe(304);
    expect(comparable(visitor304)).toEqual(comparable(routed304));
    expect(await visitor304.text()).toBe('');
  });

  it('writes the request log line for every answer, with an id of its own', async () => {
    await afterBatch();
    written.length = 0;
    await fetch(appUrl + CATALOGUE_PATH);
    await fetch(appUrl + CATALOGUE_PATH, { headers: { 'if-none-match': '"stale"' } });
    await afterBatch();
    const lines = written
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({ level: 30, method: 'GET', url: CATALOGUE_PATH, status: 200 });
      expect(line.reqId).toEqual(expect.stringMatching(/^req-/));
      expect(line.ms).toEqual(expect.any(Number));
    }
    expect(lines[0]!.reqId).not.toBe(lines[1]!.reqId);
  });

  it('serves a catalogue change at once', async () => {
    const before = await fetch(appUrl + CATALOGUE_PATH);
    const etag = before.headers.get('etag')!;
    await add('Newest');
    const after = await fetch(appUrl + CATALOGUE_PATH, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    const list = (await after.json()) as { name: { en: string } }[];
    expect(list[0]!.name.en).toBe('Newest');
  });
});

describe('which requests the lane takes', () => {
  let server: Server;
  let url: string;
  let routed: string[];
  let draining = false;

  const startLane = async (options: Partial<CatalogueLaneOptions> = {}) => {
    const lane = catalogueLane({
      database: t.database,
      securityHeaders: securityHeaders(false).api,
      accessLog: null,
      draining: () => draining,
      ...options,
    });
    routed = [];
    server = createServer((req, res) =>
      lane(req, res, () => {
        routed.push(`${req.method} ${req.url}`);
        res.writeHead(418).end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const stopLane = () => new Promise<void>((resolve) => server.close(() => resolve()));

  it('answers a plain visitor GET itself and routes every other request', async () => {
    await startLane();
    try {
      const plain = await fetch(url + CATALOGUE_PATH);
      expect(plain.status).toBe(200);
      expect(plain.headers.get('x-frame-options')).toBe('DENY');
      expect(routed).toEqual([]);

      const others: [string, RequestInit][] = [
        [CATALOGUE_PATH, { headers: { cookie: 'flujo_session=x' } }],
        [`${CATALOGUE_PATH}?lang=es`, {}],
        [`${CATALOGUE_PATH}/`, {}],
        ['/api/workflows/publicx', {}],
        [CATALOGUE_PATH, { method: 'HEAD' }],
        [CATALOGUE_PATH, { method: 'POST', body: '{}' }],
      ];
      for (const [path, init] of others) {
        const res = await fetch(url + path, init);
        expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(418);
      }
      expect(routed).toHaveLength(others.length);

      draining = true;
      expect((await fetch(url + CATALOGUE_PATH)).status).toBe(418);
    } finally {
      draining = false;
      await stopLane();
    }
  });

  it('routes the request when the catalogue cannot be read', async () => {
    const closed = await createTestDatabase();
    await closed.close();
    const lines: string[] = [];
    await startLane({
      database: closed,
      accessLog: AccessLog.create('info', { write: (line: string) => void lines.push(line) }),
    });
    try {
      const res = await fetch(url + CATALOGUE_PATH);
      expect(res.status).toBe(418);
      expect(routed).toEqual([`GET ${CATALOGUE_PATH}`]);
      await afterBatch();
      // The router logs what it answers; the lane wrote nothing for a request it did not answer.
      expect(lines).toEqual([]);
    } finally {
      await stopLane();
    }
  });
});
