import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TAdminWorkflowDetail, TWorkflowSecret } from '#shared/contract/admin.js';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import { apiKeys, userWorkflows } from '#server/db/schema.js';
import { keyCall, signUpUser, type TestClient } from '#server/test/client.js';
import { chatbotWorkflowInput, useAdminApp } from '#server/test/test-data.js';
import { auditRowsFor } from './testing/test-data.js';

const { t, admin, adminId } = useAdminApp();
const db = () => t.database.db;

async function newKey(client: TestClient, name: string, scope?: 'admin' | 'user'): Promise<TApiKeyCreated> {
  const res = await client.post('/api/account/api-keys', { name, ...(scope ? { scope } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const withKey = (
  key: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  lng?: string,
) => keyCall(t, key, method, url, body, lng);

async function workflowRow(id: string) {
  const [row] = await db().select().from(userWorkflows).where(eq(userWorkflows.id, id));
  return row!;
}

describe('admin API keys', () => {
  it('an admin makes a key with the admin scope; a user asking for one is refused and gets none', async () => {
    const key = await newKey(admin, 'n8n', 'admin');
    expect(key).toMatchObject({ name: 'n8n', scope: 'admin' });
    const listed = (await admin.get('/api/account/api-keys')).json() as { keys: Array<{ scope: string }> };
    expect(listed.keys.some((k) => k.scope === 'admin')).toBe(true);

    const user = await signUpUser(t);
    const refused = await user.client.post(
      '/api/account/api-keys',
      { name: 'sneaky', scope: 'admin' },
      { 'accept-language': 'es' },
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      error: 'Solo los administradores pueden crear claves de API de administración',
    });
    expect(await db().select().from(apiKeys).where(eq(apiKeys.userId, user.id))).toEqual([]);
    // Without a scope a key is the person's own, as before.
    expect(await newKey(user.client, 'mine')).toMatchObject({ scope: 'user' });
  });

  it('only an admin key of an admin opens /api/v1/admin/: no key 401, a user key 403, a demoted admin 403', async () => {
    const path = '/api/v1/admin/workflows';
    const anonymous = await t.app.inject({ method: 'GET', url: path });
    expect(anonymous.statusCode).toBe(401);
    // The admin panel's cookie is not a key.
    expect((await admin.get(path)).statusCode).toBe(401);

    const user = await signUpUser(t);
    const userKey = await newKey(user.client, 'user key');
    const refused = await withKey(userKey.key, 'POST', path, chatbotWorkflowInput(user.id), 'es');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      error: "Esto necesita una clave de API de administración de un administrador (ámbito 'admin')",
    });
    // The admin's own key without the scope is a user key too.
    const plain = await newKey(admin, 'plain');
    expect((await withKey(plain.key, 'GET', path)).statusCode).toBe(403);

    // A second admin makes an admin key, then loses the role: the key keeps its own API, not the admin one.
    const second = await signUpUser(t);
    expect((await admin.patch(`/api/admin/users/${second.id}`, { isAdmin: true })).statusCode).toBe(200);
    const theirs = await newKey(second.client, 'soon demoted', 'admin');
    expect((await withKey(theirs.key, 'GET', path)).statusCode).toBe(200);
    expect((await admin.patch(`/api/admin/users/${second.id}`, { isAdmin: false })).statusCode).toBe(200);
    expect((await withKey(theirs.key, 'GET', path)).statusCode).toBe(403);
    expect((await withKey(theirs.key, 'GET', '/api/v1/me')).statusCode).toBe(200);
    // None of the refused calls made a workflow.
    expect(await db().select().from(userWorkflows).where(eq(userWorkflows.userId, user.id))).toEqual([]);
  });
});

describe('the management API', () => {
  it('creates, reads, lists and changes workflows with the admin panel contracts, audited with the key named', async () => {
    const key = await newKey(admin, 'Builder n8n', 'admin');
    const created = await withKey(
      key.key,
      'POST',
      '/api/v1/admin/workflows',
      chatbotWorkflowInput(adminId(), { isPublic: false }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const workflow = created.json() as TAdminWorkflowDetail;
    expect(workflow).toMatchObject({ isPublic: false, isActive: true, interactionType: 'chatbot' });

    const listed = await withKey(key.key, 'GET', `/api/v1/admin/workflows?q=${encodeURIComponent('E-mail')}`);
    expect(listed.statusCode).toBe(200);
    expect(Number(listed.headers['x-total-count'])).toBeGreaterThan(0);
    expect((listed.json() as Array<{ id: string }>).map((w) => w.id)).toContain(workflow.id);
    const read = await withKey(key.key, 'GET', `/api/v1/admin/workflows/${workflow.id}`);
    expect(read.json()).toEqual(workflow);

    const changed = await withKey(key.key, 'PATCH', `/api/v1/admin/workflows/${workflow.id}`, {
      creditsPerExecution: 4,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ creditsPerExecution: 4 });

    const audit = await auditRowsFor(t, workflow.id);
    expect(audit.map((a) => a.actionType)).toEqual(['workflow_created', 'workflow_updated']);
    for (const row of audit) {
      expect(row.adminUserId).toBe(adminId());
      expect(row.details).toMatchObject({ apiKey: { id: key.id, name: 'Builder n8n' } });
    }
  });

  it('reads and rotates the signing secret; the rotation is audited without any secret', async () => {
    const key = await newKey(admin, 'secrets', 'admin');
    const workflow = (
      await withKey(key.key, 'POST', '/api/v1/admin/workflows', chatbotWorkflowInput(adminId()))
    ).json() as TAdminWorkflowDetail;
    const before = (
      await withKey(key.key, 'GET', `/api/v1/admin/workflows/${workflow.id}/secret`)
    ).json() as TWorkflowSecret;
    expect(before.secretToken).toMatch(/^whsec_/);
    const rotated = await withKey(key.key, 'POST', `/api/v1/admin/workflows/${workflow.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const after = rotated.json() as TWorkflowSecret;
    expect(after.secretToken).not.toBe(before.secretToken);
    expect(after.previousSecretExpiresAt).not.toBeNull();
    const audit = await auditRowsFor(t, workflow.id);
    expect(audit.at(-1)?.details).toMatchObject({ changedFields: ['secretToken'], apiKey: { id: key.id } });
    expect(JSON.stringify(audit)).not.toContain(before.secretToken.slice(6, 20));
  });

  it('registers a webhook URL (switching the workflow on) and unregisters only the URL it still calls', async () => {
    const key = await newKey(admin, 'trigger', 'admin');
    const workflow = (
      await withKey(
        key.key,
        'POST',
        '/api/v1/admin/workflows',
        chatbotWorkflowInput(adminId(), { isActive: false }),
      )
    ).json() as TAdminWorkflowDetail;
    const url = 'https://n8n.example.com/webhook/flujo-1';
    const hook = `/api/v1/admin/workflows/${workflow.id}/webhook`;

    // Not a URL: refused with the field named, and nothing changes.
    const bad = await withKey(key.key, 'PUT', hook, { webhookUrl: 'ftp://nope' });
    expect(bad.statusCode).toBe(400);
    expect(await workflowRow(workflow.id)).toMatchObject({
      webhookUrl: workflow.webhookUrl,
      isActive: false,
    });

    const registered = await withKey(key.key, 'PUT', hook, { webhookUrl: url });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json()).toMatchObject({ webhookUrl: url, isActive: true });

    // Another n8n's URL is not this one's to remove.
    const other = await withKey(key.key, 'DELETE', `${hook}?webhookUrl=${encodeURIComponent(`${url}-old`)}`);
    expect(other.statusCode).toBe(200);
    expect(await workflowRow(workflow.id)).toMatchObject({ webhookUrl: url, isActive: true });

    const removed = await withKey(key.key, 'DELETE', `${hook}?webhookUrl=${encodeURIComponent(url)}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ isActive: false });
    const audit = await auditRowsFor(t, workflow.id);
    expect(audit.at(-1)).toMatchObject({
      actionType: 'workflow_status_changed',
      details: { webhookUnregistered: true, apiKey: { name: 'trigger' } },
    });
    // A second removal finds it off already: nothing more is recorded.
    await withKey(key.key, 'DELETE', `${hook}?webhookUrl=${encodeURIComponent(url)}`);
    expect(await auditRowsFor(t, workflow.id)).toHaveLength(audit.length);

    const missing = await withKey(
      key.key,
      'PUT',
      '/api/v1/admin/workflows/00000000-0000-4000-8000-000000000000/webhook',
      { webhookUrl: url },
    );
    expect(missing.statusCode).toBe(404);
  });
});
