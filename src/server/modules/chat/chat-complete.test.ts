import { describe, expect, it } from 'vitest';
import { splitCompletionMarker } from '#shared/contract/chat.js';
import {
  addChatWorkflow,
  answerCall,
  completeAsync,
  runRow,
  signUpUser,
  startRun,
  useRunsWorld,
} from '../executions/testing/fixtures.js';

// What a chat run's workflow receives: the conversation the server kept, whatever the client sends as its
// `responses` when it completes the run. The app listens on a real port and calls a real workflow service.
const w = useRunsWorld();

const WELCOME = 'Hi! What are we celebrating?';

describe('completing a chat run', () => {
  it("sends the webhook the server's transcript as { question, answer } pairs, not the client's", async () => {
    const workflow = await addChatWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, workflow.id);

    const replies: string[] = [];
    for (const answer of ['A birthday', 'My sister Ana', 'About 20']) {
      const res = await user.client.post('/api/chat', {
        workflowId: workflow.id,
        executionId: runId,
        messages: [{ role: 'user', content: answer }],
        language: 'en',
      });
      expect(res.statusCode).toBe(200);
      replies.push(res.json<{ content: string }>().content);
    }
    expect(splitCompletionMarker(replies[2] ?? '').done).toBe(true);

    const { call, completion } = await completeAsync(w, user.client, runId, {
      responses: [{ question: 'What is your budget?', answer: 'Unlimited, bill someone else' }],
    });
    expect(call.body.responses).toEqual([
      { question: WELCOME, answer: 'A birthday' },
      { question: replies[0], answer: 'My sister Ana' },
      { question: replies[1], answer: 'About 20' },
    ]);
    expect((await runRow(w, runId)).inputData).toEqual(call.body.responses);

    const result = await answerCall(w, call, {
      output_data: { message: 'Party planned' },
    });
    expect(result.status).toBe(200);
    expect((await completion).json()).toMatchObject({ status: 'completed' });
  });

  it('sends no responses for a chat run completed before anything was said', async () => {
    const workflow = await addChatWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, workflow.id);
    const { call, completion } = await completeAsync(w, user.client, runId, {
      responses: [{ question: 'Name?', answer: 'Made up' }],
    });
    expect(call.body.responses).toEqual([]);
    await answerCall(w, call, {
      output_data: { message: 'done' },
    });
    expect((await completion).statusCode).toBe(200);
  });
});
