import { describe, expect, it } from 'vitest';
import { chatRequestMessages, chatResponses, readAssistantReply, type ChatTurn } from './chat-transcript';

const conversation: ChatTurn[] = [
  { role: 'assistant', content: 'Hi! What is your business?' },
  { role: 'user', content: 'A bakery' },
  { role: 'assistant', content: 'Sorry, something went wrong.', local: true },
  { role: 'user', content: 'A bakery in Madrid' },
  { role: 'assistant', content: 'How many employees?' },
  { role: 'user', content: 'Five' },
  { role: 'assistant', content: 'Thanks!' },
];

describe('chatRequestMessages', () => {
  it('leaves out the welcome message and the app own notes', () => {
    expect(chatRequestMessages(conversation)).toEqual([
      { role: 'user', content: 'A bakery' },
      { role: 'user', content: 'A bakery in Madrid' },
      { role: 'assistant', content: 'How many employees?' },
      { role: 'user', content: 'Five' },
      { role: 'assistant', content: 'Thanks!' },
    ]);
  });
});

describe('chatResponses', () => {
  it('pairs each user message with the assistant message before it, in order', () => {
    expect(chatResponses(conversation)).toEqual([
      { question: 'Hi! What is your business?', answer: 'A bakery' },
      { question: 'Hi! What is your business?', answer: 'A bakery in Madrid' },
      { question: 'How many employees?', answer: 'Five' },
    ]);
  });
  it('gives nothing for a conversation with no user message', () => {
    expect(chatResponses([{ role: 'assistant', content: 'Hello' }])).toEqual([]);
  });
});

describe('readAssistantReply', () => {
  it('passes an ordinary reply through', () => {
    expect(readAssistantReply('Tell me more', 'Thanks')).toEqual({ done: false, text: 'Tell me more' });
  });
  it('strips the English and Spanish markers in any case', () => {
    expect(readAssistantReply('All set. [CONVERSATION_COMPLETE]', 'Thanks')).toEqual({
      done: true,
      text: 'All set.',
    });
    expect(readAssistantReply('Listo [conversación_completada]', 'Gracias')).toEqual({
      done: true,
      text: 'Listo',
    });
    expect(readAssistantReply('[CONVERSACION_COMPLETADA] Hecho', 'Gracias').text).toBe('Hecho');
  });
  it('uses the thank-you text when only the marker was sent', () => {
    expect(readAssistantReply('  [CONVERSATION_COMPLETE]  ', 'Thank you!')).toEqual({
      done: true,
      text: 'Thank you!',
    });
  });
});
