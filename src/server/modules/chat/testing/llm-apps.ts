import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '#server/providers/llm/testing/test-llm-server.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';

export interface LlmApps {
  /** A real chat-completions server on loopback; before each test it echoes the last user message. */
  llm: TestLlmServer;
  /** An app whose assistant is `llm`. */
  withLlm: TestApp;
  /** An app without LLM_BASE_URL: the scripted assistant. */
  scripted: TestApp;
}

/**
 * Two apps for a test file, one talking to a test LLM server and one without an LLM, started before its
 * tests; after them each app's books are checked and everything closes. The returned objects are filled in
 * before the first test, so destructure them at the top of the file and use them inside tests.
 */
export function useLlmApps(): LlmApps {
  const llm = {} as TestLlmServer;
  const withLlm = {} as TestApp;
  const scripted = {} as TestApp;
  beforeAll(async () => {
    // Property descriptors, not values: the server's `abandoned` is a getter that must stay live.
    Object.defineProperties(llm, Object.getOwnPropertyDescriptors(await startTestLlmServer()));
    const [a, b] = await Promise.all([
      buildTestApp({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test', LLM_MODEL: 'party-model' }),
      buildTestApp(),
    ]);
    Object.assign(withLlm, a);
    Object.assign(scripted, b);
  });
  afterAll(async () => {
    for (const t of [withLlm, scripted]) {
      if (!t.database) continue;
      expect(await ledgerMismatches(t.database.db)).toEqual([]);
      await t.close();
    }
    if (llm.close) await llm.close();
  });
  beforeEach(() => {
    llm.received.length = 0;
    llm.reply((request) => {
      const lastUser = [...(request.body.messages ?? [])].reverse().find((m) => m.role === 'user');
      return { kind: 'content', content: `echo: ${lastUser?.content ?? ''}` };
    });
  });
  return { llm, withLlm, scripted };
}
