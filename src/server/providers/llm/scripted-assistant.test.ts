import { describe, expect, it } from 'vitest';
import { splitCompletionMarker } from '#shared/contract/chat.js';
import { createScriptedAssistant, questionsFromPrompt, scriptedQuestions } from './scripted-assistant.js';
import type { LlmMessage } from './types.js';

const PROMPT = `Help the user plan an event. Ask, one at a time:
- What kind of event is it? How many guests are coming? What is the budget?
- ¿Qué tipo de evento es? ¿Cuántos invitados vendrán? ¿Cuál es el presupuesto?`;

/** Plays a whole conversation: each user answer gets the assistant's next reply. */
async function converse(assistant: ReturnType<typeof createScriptedAssistant>, answers: string[]) {
  const messages: LlmMessage[] = [];
  const replies: string[] = [];
  for (const answer of answers) {
    messages.push({ role: 'user', content: answer });
    const reply = await assistant.complete({ system: 'ignored', messages });
    replies.push(reply);
    messages.push({ role: 'assistant', content: reply });
  }
  return replies;
}

describe('scripted assistant', () => {
  it("takes the prompt's questions in the user's language", () => {
    expect(questionsFromPrompt(PROMPT, 'en')).toEqual([
      'What kind of event is it?',
      'How many guests are coming?',
      'What is the budget?',
    ]);
    expect(questionsFromPrompt(PROMPT, 'es')).toEqual([
      '¿Qué tipo de evento es?',
      '¿Cuántos invitados vendrán?',
      '¿Cuál es el presupuesto?',
    ]);
  });

  it('fills in generic questions when the prompt has fewer than two', () => {
    expect(scriptedQuestions('Summarise what the user says.', 'en')).toHaveLength(2);
    expect(scriptedQuestions(null, 'es')[0]).toMatch(/^¿/);
  });

  it('asks its questions, then sums up and ends with the marker (English)', async () => {
    const assistant = createScriptedAssistant({ aiPrompt: PROMPT }, 'en');
    const replies = await converse(assistant, ['Hello', 'A wedding', '80', 'About 5000 euros']);
    expect(replies.slice(0, 3).map((r) => splitCompletionMarker(r).done)).toEqual([false, false, false]);
    expect(replies[0]).toBe('Got it. What kind of event is it?');
    expect(replies[2]).toContain('What is the budget?');
    const last = splitCompletionMarker(replies[3] ?? '');
    expect(last.done).toBe(true);
    expect(replies[3]).toContain('[CONVERSATION_COMPLETE]');
    // No label in the text: the chat screen shows it beside the reply, and the workflow never receives it.
    expect(replies.join('\n')).not.toMatch(/demo/i);
    expect(last.text).toContain('2. A wedding');
    expect(last.text).toContain('4. About 5000 euros');
  });

  it('speaks Spanish with the Spanish marker, and is deterministic', async () => {
    const answers = ['Hola', 'Una boda', '80', '5000 euros'];
    const first = await converse(createScriptedAssistant({ aiPrompt: PROMPT }, 'es'), answers);
    const second = await converse(createScriptedAssistant({ aiPrompt: PROMPT }, 'es'), answers);
    expect(first).toEqual(second);
    expect(first[0]).toBe('Entendido. ¿Qué tipo de evento es?');
    expect(first.join('\n')).not.toMatch(/demostración/i);
    expect(first[3]).toContain('[CONVERSACIÓN_COMPLETADA]');
    expect(splitCompletionMarker(first[3] ?? '').done).toBe(true);
  });

  it('finishes after three answers when the workflow gives only generic questions', async () => {
    const replies = await converse(createScriptedAssistant({ aiPrompt: 'Write a poem.' }, 'en'), [
      'a',
      'b',
      'c',
    ]);
    expect(replies.map((r) => splitCompletionMarker(r).done)).toEqual([false, false, true]);
  });

  it('sums up at once on the last message a run allows, with questions still unasked', async () => {
    const assistant = createScriptedAssistant({ aiPrompt: PROMPT }, 'en');
    const reply = await assistant.complete({
      system: '',
      messages: [{ role: 'user', content: 'Hello' }],
      final: true,
    });
    expect(splitCompletionMarker(reply).done).toBe(true);
    expect(reply).toContain('1. Hello');
  });
});
