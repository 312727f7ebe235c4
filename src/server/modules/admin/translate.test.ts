import { describe, expect, it } from 'vitest';
import { signInAdmin, signUpUser, TestClient } from '#server/test/client.js';
import { TEST_ADMIN } from '#server/test/harness.js';
import { useLlmApps } from '../chat/testing/llm-apps.js';

/** `scripted` has no LLM_BASE_URL: the scripted assistant, which cannot translate. */
const { llm, withLlm, scripted } = useLlmApps();

describe('POST /api/admin/translate', () => {
  it('translates with the LLM at temperature 0', async () => {
    llm.reply({ kind: 'content', content: 'Hello world' });
    const admin = await signInAdmin(withLlm, TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await admin.post('/api/admin/translate', { text: 'Hola mundo', targetLanguage: 'en' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ translation: 'Hello world' });
    const body = llm.received[0]?.body;
    expect(body?.temperature).toBe(0);
    expect(body?.messages?.[0]?.content).toContain('English');
    expect(body?.messages?.[1]).toEqual({ role: 'user', content: 'Hola mundo' });
  });

  it('refuses empty text with VALIDATION_ERROR', async () => {
    const admin = await signInAdmin(withLlm, TEST_ADMIN.email, TEST_ADMIN.password);
    for (const text of ['', '   ']) {
      const res = await admin.post('/api/admin/translate', { text, targetLanguage: 'es' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect(llm.received).toHaveLength(0);
  });

  it('is for admins only', async () => {
    const user = await signUpUser(withLlm);
    const res = await user.client.post('/api/admin/translate', { text: 'Hola', targetLanguage: 'en' });
    expect(res.statusCode).toBe(403);
    expect(
      (await new TestClient(withLlm).post('/api/admin/translate', { text: 'x', targetLanguage: 'en' }))
        .statusCode,
    ).toBe(401);
    expect(llm.received).toHaveLength(0);
  });

  it('answers 503 NOT_CONFIGURED without an LLM, and 502 when the LLM fails', async () => {
    const admin = await signInAdmin(scripted, TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await admin.post('/api/admin/translate', { text: 'Hola', targetLanguage: 'en' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'NOT_CONFIGURED' });

    llm.reply({ kind: 'raw', status: 500, text: 'boom' });
    const llmAdmin = await signInAdmin(withLlm, TEST_ADMIN.email, TEST_ADMIN.password);
    const failed = await llmAdmin.post('/api/admin/translate', { text: 'Hola', targetLanguage: 'en' });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ code: 'BAD_GATEWAY' });
  });
});
