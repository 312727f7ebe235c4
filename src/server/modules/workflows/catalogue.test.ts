import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWorkflows } from '#server/db/schema.js';
import { signInAdmin, signUpUser, TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { addCatalogueWorkflow } from './testing/fixtures.js';

let t: TestApp;
let adminId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  adminId = (await admin.get('/api/auth/me')).json().id;
});
afterAll(async () => {
  await t?.close();
});

const add = (name: string, extra: Record<string, unknown> = {}) =>
  addCatalogueWorkflow(t.database.db, adminId, name, extra);

const anonymous = () => new TestClient(t);

describe('GET /api/workflows/public', () => {
  it('shows active public workflows to everyone, and private ones to admins only', async () => {
    const open = await add('Open');
    const hidden = await add('Hidden', { isPublic: false });
    const off = await add('Off', { isActive: false });
    const names = (res: { json(): unknown }) =>
      (res.json() as Array<{ name: { en: string } }>).map((w) => w.name.en);

    const visitor = await anonymous().get('/api/workflows/public');
    expect(visitor.statusCode).toBe(200);
    expect(names(visitor)).toEqual(['Open']);
    expect(visitor.json()[0]).toEqual({
      id: open.id,
      name: { es: 'Open es', en: 'Open' },
      description: { es: 'Descripción', en: 'Description' },
      category: { es: 'Ventas', en: 'Sales' },
      interactionType: 'chatbot',
      creditsPerExecution: 1,
      rating: { average: null, count: 0 },
      runCount: 0,
      // Not paused, and no public health under 20 finished runs in 30 days (decisions 145, 146).
      paused: false,
      health: null,
    });
    const user = await signUpUser(t);
    expect(names(await user.client.get('/api/workflows/public'))).toEqual(['Open']);
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    expect(names(await admin.get('/api/workflows/public')).sort()).toEqual(['Hidden', 'Open']);
    expect(hidden.id).not.toBe(off.id);
  });

  it('answers 304 to a matching If-None-Match, and a new ETag once the catalogue changes', async () => {
    const first = await anonymous().get('/api/workflows/public');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await anonymous().get('/api/workflows/public', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const added = await add('Newest');
    const changed = await anonymous().get('/api/workflows/public', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json()[0].name.en).toBe('Newest');

    // A change made elsewhere (another instance, straight SQL) is seen too: the version lives in the database.
    const etag2 = String(changed.headers.etag);
    await t.database.db
      .update(userWorkflows)
      .set({ isActive: false, updatedAt: sql`now()` })
      .where(eq(userWorkflows.id, added.id));
    const after = await anonymous().get('/api/workflows/public', { 'if-none-match': etag2 });
    expect(after.statusCode).toBe(200);
    expect(after.json().map((w: { id: string }) => w.id)).not.toContain(added.id);
    await t.database.db.delete(userWorkflows).where(eq(userWorkflows.id, added.id));
    const afterDelete = await anonymous().get('/api/workflows/public', {
      'if-none-match': String(after.headers.etag),
    });
    expect(afterDelete.statusCode).toBe(304);
  });

  it('gives admins and visitors different ETags', async () => {
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    const a = await admin.get('/api/workflows/public');
    const v = await anonymous().get('/api/workflows/public', { 'if-none-match': String(a.headers.etag) });
    expect(v.statusCode).toBe(200);
    expect(v.headers.etag).not.toBe(a.headers.etag);
  });
});

describe('GET /api/workflows/public/{id}', () => {
  it('returns what the execute screen needs, and 404 for unknown, inactive or (to users) private ones', async () => {
    const survey = await add('Survey', {
      interactionType: 'survey',
      creditsPerExecution: 3,
      surveyQuestions: [
        { id: 'q1', question: { es: '¿Color?', en: 'Colour?' }, type: 'select', options: ['Rojo', 'Azul'] },
      ],
    });
    const res = await anonymous().get(`/api/workflows/public/${survey.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: survey.id,
      interactionType: 'survey',
      creditsPerExecution: 3,
      welcomeMessage: null,
      surveyQuestions: [{ id: 'q1', type: 'select', options: ['Rojo', 'Azul'] }],
      // No language model is configured in tests: a chat would be answered by the labelled demo assistant.
      demoAssistant: true,
    });
    const hidden = await add('Private detail', { isPublic: false });
    const off = await add('Inactive detail', { isActive: false });
    const user = await signUpUser(t);
    for (const id of [hidden.id, off.id, '00000000-0000-4000-8000-000000000000']) {
      const r = await user.client.get(`/api/workflows/public/${id}`);
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('NOT_FOUND');
    }
    expect((await user.client.get('/api/workflows/public/not-a-uuid')).statusCode).toBe(400);
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    expect((await admin.get(`/api/workflows/public/${hidden.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/workflows/public/${off.id}`)).statusCode).toBe(404);
  });
});

describe('GET /api/workflows/public, compressed', () => {
  const url = '/api/workflows/public';
  const get = (headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers });

  it('sends the snapshot compressed as the client prefers, each coding with its own ETag', async () => {
    // Enough workflows for a list over 1 kB.
    for (let i = 0; i < 12; i++) await add(`Compressed ${i}`);
    const plain = await get({});
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Cookie, Accept-Encoding');

    const br = await get({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.headers['content-length']).toBe(String(br.rawPayload.length));
    expect(br.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(br.headers['cache-control']).toBe('private, no-cache');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);

    const gz = await get({ 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const tags = [plain, br, gz].map((r) => String(r.headers.etag));
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[^"]+"$/);
  });

  it("answers 304 to the ETag of the coding it would send, and 200 to another coding's", async () => {
    const br = await get({ 'accept-encoding': 'br' });
    const etag = String(br.headers.etag);
    const again = await get({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(again.headers['content-encoding']).toBeUndefined();
    const plain = await get({ 'if-none-match': etag });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((await get({ 'if-none-match': String(plain.headers.etag) })).statusCode).toBe(304);
  });

  it('answers HEAD with the compressed length and no body', async () => {
    const full = await get({ 'accept-encoding': 'br' });
    const head = await get({ 'accept-encoding': 'br' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });
});
