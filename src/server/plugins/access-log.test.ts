import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness.js';
import { AccessLog, LineBatch } from './access-log.js';

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
    t.app.flushAccessLog();
    written.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/workflows/public?q=%22quoted%22' });
    await t.app.inject({ method: 'GET', url: '/api/executions' });
    t.app.flushAccessLog();
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
    t.app.flushAccessLog();
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
    t.app.flushAccessLog();
    const log = written.join('');
    expect(logLines().filter((l) => l.msg === 'request')).toHaveLength(2);
    expect(log).not.toContain(password);
    expect(log).not.toContain(token);
  });
});

describe('LineBatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands the lines of a few milliseconds to the destination in one write, in order', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const batch = new LineBatch({ write: (chunk: string) => void writes.push(chunk) });
    batch.write('a\n');
    batch.write('b\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(writes).toEqual(['a\nb\n']);
    batch.write('c\n');
    vi.advanceTimersByTime(19);
    expect(writes).toEqual(['a\nb\n']);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\n', 'c\n']);
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(2);
  });

  it('writes at once past 64 KB pending, and when flushed', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const batch = new LineBatch({ write: (chunk: string) => void writes.push(chunk) });
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i += 1) batch.write(line);
    expect(writes).toEqual([line.repeat(64)]);
    batch.flush();
    expect(writes).toHaveLength(1);
    batch.write('last\n');
    batch.flush();
    expect(writes).toEqual([line.repeat(64), 'last\n']);
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(2);
  });
});

describe('AccessLog', () => {
  it('is off below the info level', () => {
    const sink = { write: () => undefined };
    expect(AccessLog.create('warn', sink)).toBeNull();
    expect(AccessLog.create('silent', sink)).toBeNull();
    expect(AccessLog.create('info', sink)).not.toBeNull();
    expect(AccessLog.create('debug', sink)).not.toBeNull();
  });

  it('writes a JSON line in the app log format, whatever the URL holds', () => {
    const writes: string[] = [];
    const log = AccessLog.create('info', { write: (chunk: string) => void writes.push(chunk) })!;
    const url = '/x?q="quoted"\\&n=\u00f1\n';
    log.write({ reqId: 'req-1', method: 'GET', url, status: 404, ms: 3 });
    log.flush();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.endsWith('\n')).toBe(true);
    expect(JSON.parse(writes[0]!)).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: 'req-1',
      method: 'GET',
      url,
      status: 404,
      ms: 3,
      msg: 'request',
    });
  });
});
