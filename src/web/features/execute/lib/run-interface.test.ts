import { describe, expect, it } from 'vitest';
import { runInterfaceOf } from './run-interface';

const question = {
  id: 'q1',
  question: { es: '¿Nombre?', en: 'Name?' },
  type: 'text' as const,
  options: [],
};

describe('runInterfaceOf', () => {
  it('runs a chatbot with a welcome message in either language as a chat', () => {
    const base = { interactionType: 'chatbot' as const, surveyQuestions: [] };
    expect(runInterfaceOf({ ...base, welcomeMessage: { es: 'Hola', en: 'Hi' } })).toBe('chat');
    expect(runInterfaceOf({ ...base, welcomeMessage: { es: 'Hola', en: '' } })).toBe('chat');
  });
  it('has no interface for a chatbot without a welcome message', () => {
    const base = { interactionType: 'chatbot' as const, surveyQuestions: [question] };
    expect(runInterfaceOf({ ...base, welcomeMessage: null })).toBeNull();
    expect(runInterfaceOf({ ...base, welcomeMessage: { es: ' ', en: '' } })).toBeNull();
  });
  it('runs a survey only when it has questions', () => {
    const base = { interactionType: 'survey' as const, welcomeMessage: { es: 'Hola', en: 'Hi' } };
    expect(runInterfaceOf({ ...base, surveyQuestions: [question] })).toBe('survey');
    expect(runInterfaceOf({ ...base, surveyQuestions: [] })).toBeNull();
  });
});
