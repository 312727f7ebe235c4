import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api';
import { fetchPage, listQuery } from './list-fetcher';

// A real HTTP server on loopback answers like the admin list endpoints do.
let server: Server;
let base = '';
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url?.startsWith('/list')) {
      res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '42' });
      res.end(JSON.stringify([{ id: 'a' }, { id: 'b' }]));
    } else if (req.url?.startsWith('/no-header')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 'a' }]));
    } else if (req.url?.startsWith('/bad')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'limit must be at most 500', code: 'VALIDATION_ERROR' }));
    } else {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('listQuery', () => {
  it('leaves out empty filters, so "all" sends no filter', () => {
    expect(listQuery({ q: '', status: undefined, limit: 20, offset: 0 })).toBe('?limit=20&offset=0');
    expect(listQuery({})).toBe('');
    expect(listQuery({ q: 'ana@x.com & co' })).toBe('?q=ana%40x.com+%26+co');
  });
});

describe('fetchPage', () => {
  it('returns the rows and the total from X-Total-Count, sending the filters', async () => {
    const page = await fetchPage<{ id: string }>(`${base}/list`, {
      q: 'lead',
      status: 'failed',
      limit: 20,
      offset: 40,
    });
    expect(page).toEqual({ items: [{ id: 'a' }, { id: 'b' }], total: 42 });
    expect(seen).toContain('/list?q=lead&status=failed&limit=20&offset=40');
  });

  it('falls back to the number of rows when the header is missing', async () => {
    expect((await fetchPage(`${base}/no-header`, {})).total).toBe(1);
  });

  it('throws the server message and code for an error body', async () => {
    const err = await fetchPage(`${base}/bad`, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      message: 'limit must be at most 500',
      status: 400,
      code: 'VALIDATION_ERROR',
    });
  });

  it("says 'Request failed' when the error body is not JSON", async () => {
    const err = await fetchPage(`${base}/down`, {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: 'Request failed', status: 502 });
  });
});
