import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
const written: string[] = [];
beforeAll(async () => {
  t = await buildTestApp(
    { LOG_LEVEL: 'info' },
    { logger: { destination: { write: (line: string) => void written.push(line) } } },
  );
});
afterAll(async () => {
  await t.close();
});

const logLines = () =>
  written
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('request log', () => {
  it('writes one JSON line per answered request: its id, method, url, status and milliseconds', async () => {
    written.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/workflows/public?q=%22quoted%22' });
    await t.app.inject({ method: 'GET', url: '/api/executions' });
    const requests = logLines().filter((l) => l.msg === 'request');
    expect(requests.map((l) => [l.method, l.url, l.status])).toEqual([
      ['GET', '/api/workflows/public?q=%22quoted%22', 200],
      ['GET', '/api/executions', 401],
    ]);
    for (const line of requests) {
      expect(line).toMatchObject({ level: 30, reqId: expect.any(String), ms: expect.any(Number) });
    }
    expect(requests[0]!.reqId).not.toBe(requests[1]!.reqId);
  });

  it('never writes a password or a session token', async () => {
    written.length = 0;
    const password = 'a-secret-password-77';
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json', origin: t.origin },
      payload: JSON.stringify({ email: 'logged@test.example', password, fullName: 'Logged' }),
    });
    expect(signup.statusCode).toBe(201);
    const cookie = String(signup.headers['set-cookie']).split(';')[0]!;
    const token = cookie.split('=')[1]!;
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const log = written.join('');
    expect(logLines().filter((l) => l.msg === 'request')).toHaveLength(2);
    expect(log).not.toContain(password);
    expect(log).not.toContain(token);
  });
});
