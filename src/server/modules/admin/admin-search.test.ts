import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TAdminAuditEntry,
  TAdminCreditTransaction,
  TAdminUser,
  TAdminWorkflow,
} from '#shared/contract/admin.js';
import { signInAdmin, signUpUser, type TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { chatbotWorkflowInput, testAdminId } from '#server/test/test-data.js';

let t: TestApp;
let admin: TestClient;
const ids = { perez: '', nunez: '', other: '' };
let workflowId = '';
let reportId = '';

const list = async <T>(path: string) => (await admin.get(path)).json() as T[];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  ids.perez = (await signUpUser(t, { email: 'lucia@example.com', fullName: 'Lucía Pérez' })).id;
  ids.nunez = (await signUpUser(t, { email: 'jose.munoz@test.example', fullName: 'JOSÉ NÚÑEZ' })).id;
  ids.other = (await signUpUser(t, { email: 'sam@other.test', fullName: 'Sam Smith' })).id;
  const res = await admin.post(
    '/api/admin/workflows',
    chatbotWorkflowInput(await testAdminId(t), { name: { es: 'Calificación de leads', en: 'Lead scoring' } }),
  );
  workflowId = (res.json() as { id: string }).id;
  const report = await admin.post(
    '/api/admin/workflows',
    chatbotWorkflowInput(await testAdminId(t), {
      name: { es: 'Informe de incidencia (PDF)', en: 'Incident report (PDF)' },
    }),
  );
  reportId = (report.json() as { id: string }).id;
  await admin.patch(`/api/admin/users/${ids.nunez}`, { accountStatus: 'suspended' });
});

afterAll(async () => {
  await t?.close();
});

describe('admin searches match any part, accents and case aside', () => {
  it.each([
    ['a domain', 'example.com', ['perez']],
    ['the middle of a name without its accent', 'rez', ['perez']],
    ['a name in capitals', 'PEREZ', ['perez']],
    ['accented capitals without accents', 'nunez', ['nunez']],
    ['plain letters with accents', 'Jósé', ['nunez']],
    ['an e-mail typed with accents', 'Muñoz', ['nunez']],
    ['two parts of a name', 'luc pér', ['perez']],
  ])('users: %s', async (_label, q, expected) => {
    const rows = await list<TAdminUser>(`/api/admin/users?q=${encodeURIComponent(q)}`);
    expect(rows.map((u) => u.id).sort()).toEqual(expected.map((k) => ids[k as keyof typeof ids]).sort());
  });

  it('workflows: the middle of a name without its accent', async () => {
    const rows = await list<TAdminWorkflow>(`/api/admin/workflows?q=${encodeURIComponent('calificacion')}`);
    expect(rows.map((w) => w.id)).toEqual([workflowId]);
    expect(await list<TAdminWorkflow>('/api/admin/workflows?q=CORING')).toHaveLength(1);
  });

  it.each([
    ['two words out of order', 'pdf informe'],
    ['words in capitals without accents, one of them partial', 'INCIDENCIA inf'],
    ['words from both languages', 'incident informe'],
  ])('workflows: every word of the query, %s', async (_label, q) => {
    const rows = await list<TAdminWorkflow>(`/api/admin/workflows?q=${encodeURIComponent(q)}`);
    expect(rows.map((w) => w.id)).toEqual([reportId]);
  });

  it('workflows: a query with one word that matches nothing finds nothing', async () => {
    expect(
      await list<TAdminWorkflow>(`/api/admin/workflows?q=${encodeURIComponent('informe hoja')}`),
    ).toEqual([]);
  });

  it('users: words in any order', async () => {
    const rows = await list<TAdminUser>(`/api/admin/users?q=${encodeURIComponent('PÉREZ lucia')}`);
    expect(rows.map((u) => u.id)).toEqual([ids.perez]);
  });

  it('credits: the ledger rows of a domain', async () => {
    const rows = await list<TAdminCreditTransaction>('/api/admin/credits?q=example.com');
    expect(rows.map((r) => [r.user?.id, r.noteKind])).toEqual([[ids.perez, 'signup_bonus']]);
  });

  it('audit: part of an action', async () => {
    const rows = await list<TAdminAuditEntry>('/api/admin/audit?q=suspend');
    expect(rows.map((r) => [r.actionType, r.targetId])).toEqual([['user_suspended', ids.nunez]]);
  });

  it('audit: the words of an action in any order', async () => {
    const rows = await list<TAdminAuditEntry>(`/api/admin/audit?q=${encodeURIComponent('suspended user')}`);
    expect(rows.map((r) => [r.actionType, r.targetId])).toEqual([['user_suspended', ids.nunez]]);
  });
});
