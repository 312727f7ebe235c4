import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  startTestLlmServer,
  type TestLlmServer,
} from '../src/server/providers/llm/testing/test-llm-server.js';
import { PORTS, WORK_DIR } from './lib/paths.js';
import type { Check, SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows, type SeededUser } from './lib/seed.js';
import { startServer, type RunningServer } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { median, round } from './lib/stats.js';

/** Flujo may add at most this much, at the median, to the time until the first words reach the reader. */
const OVERHEAD_BUDGET_MS = 10;
/** The LLM stand-in's pause between its first and its next pieces: a model still thinking. */
const MODEL_PAUSE_MS = 30;
const USERS = 12;
/** Per user: under the chat's 20 calls a minute and its 40 messages a run. */
const MESSAGES_PER_USER = 8;

interface Seeded {
  users: SeededUser[];
  workflowId: string;
}

async function seed(dataDir: string): Promise<Seeded> {
  const database = await openTarget({ kind: 'pglite', dataDir });
  try {
    const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
    // The first seeded workflow is a chat.
    const [chat] = await seedWorkflows(database.db, admin!.id, 1);
    const users = await seedUsers(database.db, { count: USERS, credits: 1000, prefix: 'chatter' });
    return { users, workflowId: chat!.id };
  } finally {
    await database.close();
  }
}

/** Reads a response body until `test` holds for what arrived; the milliseconds from `start` until then. */
async function timeUntil(res: Response, start: number, test: (text: string) => boolean): Promise<number> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`stream ended before the first words: ${text.slice(0, 200)}`);
      text += decoder.decode(chunk.value, { stream: true });
      if (test(text)) return performance.now() - start;
    }
  } finally {
    // The rest of the reply is drained, so the next sample starts on a quiet server.
    void (async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done);
    })();
  }
}

/** Time to the stand-in's first content piece, asked directly with the request Flujo would send. */
async function firstTokenDirect(llm: TestLlmServer): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${llm.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      model: 'bench',
      stream: true,
      messages: [
        { role: 'system', content: 'x'.repeat(900) },
        { role: 'user', content: 'An answer' },
      ],
    }),
  });
  return timeUntil(res, start, (text) => text.includes('"content":"Great'));
}

function chatCall(server: RunningServer, user: SeededUser, workflowId: string, runId: string) {
  return fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: {
      origin: server.url,
      cookie: `flujo_session=${user.token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({
      workflowId,
      executionId: runId,
      messages: [{ role: 'user', content: 'An answer' }],
      language: 'en',
    }),
  });
}

async function startRuns(server: RunningServer, seeded: Seeded): Promise<string[]> {
  const runs: string[] = [];
  for (const user of seeded.users) {
    const res = await fetch(`${server.url}/api/executions/start`, {
      method: 'POST',
      headers: {
        origin: server.url,
        cookie: `flujo_session=${user.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ workflowId: seeded.workflowId, language: 'en' }),
    });
    if (res.status !== 201) throw new Error(`start: ${res.status} ${await res.text()}`);
    runs.push(((await res.json()) as { executionId: string }).executionId);
  }
  return runs;
}

export async function benchChatStream(settings: Settings): Promise<SectionResult> {
  const dir = join(WORK_DIR, 'chat-stream');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const llm = await startTestLlmServer();
  // Every reply: a first piece at once, the rest after a pause, as a model that starts writing and thinks on.
  llm.reply(() => ({
    kind: 'stream',
    pieces: ['Great, ', 'how many ', 'guests ', 'are coming?'],
    holdAfter: 1,
    release: new Promise<void>((resolve) => setTimeout(resolve, MODEL_PAUSE_MS)),
  }));
  const checks: Check[] = [];
  const notes: string[] = [];
  const details: string[] = [];
  try {
    // Through Flujo with the stand-in as its model.
    const llmDir = join(dir, 'llm');
    const seeded = await seed(llmDir);
    const server = await startServer({
      database: { kind: 'pglite', dataDir: llmDir },
      port: PORTS.server,
      logLevel: 'warn',
      logFile: join(dir, 'server-llm.log'),
      env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'bench' },
    });
    const direct: number[] = [];
    const through: number[] = [];
    try {
      const runs = await startRuns(server, seeded);
      const perUser = settings.quick ? 2 : MESSAGES_PER_USER;
      // Warm-up: the first calls pay for compiling and connecting.
      for (let i = 0; i < 3; i++) await firstTokenDirect(llm);
      for (let round_ = 0; round_ < perUser; round_++) {
        for (const [i, user] of seeded.users.entries()) {
          // Interleaved, so a busy moment of the machine weighs on both alike.
          direct.push(await firstTokenDirect(llm));
          const start = performance.now();
          const res = await chatCall(server, user, seeded.workflowId, runs[i]!);
          if (res.status !== 200) throw new Error(`chat: ${res.status} ${await res.text()}`);
          through.push(await timeUntil(res, start, (text) => text.includes('event: delta')));
        }
      }
    } finally {
      await server.stop();
    }
    const warm = (values: number[]) => values.slice(seeded.users.length);
    const d = median(warm(direct));
    const f = median(warm(through));
    const overhead = f - d;
    checks.push({
      what: 'time to the first streamed words through Flujo, less the LLM stand-in’s own first token (median)',
      measured: `${round(overhead, 1)} ms (Flujo ${round(f, 1)} ms, stand-in ${round(d, 1)} ms)`,
      limit: `the stand-in’s first token, ${round(d, 1)} ms`,
      ratio: `${round(f / d, 2)}x`,
      budget: `under ${OVERHEAD_BUDGET_MS} ms`,
      pass: overhead < OVERHEAD_BUDGET_MS,
    });
    details.push(
      `Samples after warm-up: ${warm(through).length} each. Flujo p90 ${round(percentile(warm(through), 0.9), 1)} ms, stand-in p90 ${round(percentile(warm(direct), 0.9), 1)} ms.`,
    );

    // The scripted assistant's pace, as the embedded mode shows it.
    const demoDir = join(dir, 'demo');
    const demo = await seed(demoDir);
    const demoServer = await startServer({
      database: { kind: 'pglite', dataDir: demoDir },
      port: PORTS.server,
      logLevel: 'warn',
      logFile: join(dir, 'server-demo.log'),
    });
    const paces: number[] = [];
    try {
      const runs = await startRuns(demoServer, demo);
      for (const [i, user] of demo.users.slice(0, settings.quick ? 2 : 6).entries()) {
        const res = await chatCall(demoServer, user, demo.workflowId, runs[i]!);
        const body = res.body!.getReader();
        const decoder = new TextDecoder();
        const times: number[] = [];
        let buffer = '';
        for (let chunk = await body.read(); !chunk.done; chunk = await body.read()) {
          buffer += decoder.decode(chunk.value, { stream: true });
          const count = (buffer.match(/event: delta/g) ?? []).length;
          while (times.length < count) times.push(performance.now());
        }
        if (times.length > 1) paces.push((times.at(-1)! - times[0]!) / (times.length - 1));
      }
    } finally {
      await demoServer.stop();
    }
    checks.push({
      what: 'scripted demo assistant: time between streamed words (median over replies)',
      measured: `${round(median(paces), 1)} ms a word (${round(1000 / median(paces), 1)} words/s)`,
      budget: 'reported (DEMO_CHAT_WORD_MS, 40 ms by default)',
      pass: null,
    });
    notes.push(
      `Load average when the run ended: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ', ',
        )}; figures taken on a busy machine measure the machine more than Flujo, so compare them with a run on a quiet one.`,
      `The LLM stand-in (src/server/providers/llm/testing/test-llm-server.ts) is a real HTTP server on loopback speaking the chat-completions streaming protocol; it sends its first piece at once and the rest after ${MODEL_PAUSE_MS} ms. "Stand-in" is the time from sending Flujo's request to it directly until its first piece arrives; "Flujo" is the time from POST /api/chat (Accept: text/event-stream) until the first delta event arrives, which includes the message's checks and counting in the database (PGlite) before the model is called. Both are measured alternately in one run, ${USERS} users each with a pending chat run.`,
    );
  } finally {
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    id: 'chat-stream',
    title: 'Streamed chat replies: time to the first words',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: '',
    checks,
    notes,
    details,
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}
