import { describe, expect, it } from 'vitest';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import { prefillAnswers, prefillFromState } from './prefill';

const questions: TSurveyQuestion[] = [
  { id: 'name', type: 'text', question: { es: 'Nombre', en: 'Name' }, options: [] },
  {
    id: 'channel',
    type: 'select',
    question: { es: 'Canal', en: 'Channel' },
    options: ['Referral', 'Google'],
    optionLabels: { Referral: { es: 'Recomendación', en: 'Referral' } },
  },
  {
    id: 'liked',
    type: 'checkbox',
    question: { es: 'Qué valoraste', en: 'What you liked' },
    options: ['Price', 'Speed'],
    optionLabels: { Price: { es: 'Precio', en: 'Price' }, Speed: { es: 'Rapidez', en: 'Speed' } },
  },
];

describe('prefillAnswers', () => {
  it('maps answers sent in either language back to the stored options', () => {
    const answers = prefillAnswers(questions, [
      { question: 'Nombre', answer: 'Ana' },
      { question: 'Canal', answer: 'Recomendación' },
      { question: 'Qué valoraste', answer: ['Rapidez', 'Precio'] },
    ]);
    expect(answers).toEqual({ name: 'Ana', channel: 'Referral', liked: ['Price', 'Speed'] });
  });

  it('falls back to the position when the texts changed, and drops answers that no longer fit', () => {
    const answers = prefillAnswers(questions, [
      { question: 'Old name question', answer: 'Ana' },
      { question: 'Old channel question', answer: 'Fax' },
      { question: 'Old liked question', answer: 'not a list of known options' },
    ]);
    expect(answers).toEqual({ name: 'Ana', liked: [] });
  });

  it('reads only well-formed answers from the navigation state', () => {
    expect(prefillFromState(null)).toBeNull();
    expect(prefillFromState({ prefill: [{ question: 1, answer: 'x' }] })).toBeNull();
    expect(prefillFromState({ prefill: [{ question: 'q', answer: ['a'] }] })).toEqual([
      { question: 'q', answer: ['a'] },
    ]);
  });
});
