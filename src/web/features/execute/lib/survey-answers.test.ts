import { describe, expect, it } from 'vitest';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import { answerIssues, initialAnswers, isRequired, surveyResponses, toggleOption } from './survey-answers';

const q = (
  id: string,
  type: TSurveyQuestion['type'],
  options: string[] = [],
  extra: Partial<TSurveyQuestion> = {},
): TSurveyQuestion => ({
  id,
  type,
  options,
  question: { es: `Pregunta ${id}`, en: `Question ${id}` },
  ...extra,
});
const questions = [
  q('name', 'text'),
  q('about', 'textarea'),
  q('size', 'number'),
  q('plan', 'select', ['Basic', 'Pro']),
  q('tools', 'checkbox', ['Excel', 'Sheets', 'Notion']),
];

describe('survey answers', () => {
  it('start empty: strings, and a list for checkboxes', () => {
    expect(initialAnswers(questions)).toEqual({ name: '', about: '', size: '', plan: '', tools: [] });
  });

  it('require what a question says, and (stored before the flag) every type but checkboxes', () => {
    expect(questions.filter(isRequired).map((x) => x.id)).toEqual(['name', 'about', 'size', 'plan']);
    expect(isRequired(q('n', 'text', [], { required: false }))).toBe(false);
    expect(isRequired(q('c', 'checkbox', ['a'], { required: true }))).toBe(true);
  });

  it('report the missing required answers in form order, whitespace counting as missing', () => {
    const answers = { ...initialAnswers(questions), about: '   ', size: '3' };
    expect(answerIssues(questions, answers, 'en')).toEqual([
      ['name', { key: 'answerRequired' }],
      ['about', { key: 'answerRequired' }],
      ['plan', { key: 'answerRequired' }],
    ]);
    expect(
      answerIssues(questions, { name: 'a', about: 'b', size: '0', plan: 'Pro', tools: [] }, 'en'),
    ).toEqual([]);
  });

  it('apply the server rules: an optional question may stay empty, a number keeps to its range', () => {
    const form = [
      q('nick', 'text', [], { required: false }),
      q('age', 'number', [], { min: 18, max: 99 }),
      q('floor', 'number', [], { min: 0 }),
    ];
    expect(answerIssues(form, { nick: '', age: '17', floor: '-1' }, 'es')).toEqual([
      ['age', { key: 'answerOutOfRange', params: { min: 18, max: 99 } }],
      ['floor', { key: 'answerBelowMin', params: { min: 0 } }],
    ]);
    expect(answerIssues(form, { nick: '', age: 'x', floor: '2.5' }, 'es')).toEqual([
      ['age', { key: 'answerNotNumber' }],
    ]);
    expect(answerIssues(form, { nick: '', age: '99', floor: '0' }, 'es')).toEqual([]);
  });

  it('keep ticked options in the options order', () => {
    const opts = ['Excel', 'Sheets', 'Notion'];
    let chosen = toggleOption(opts, [], 'Notion');
    chosen = toggleOption(opts, chosen, 'Excel');
    expect(chosen).toEqual(['Excel', 'Notion']);
    expect(toggleOption(opts, chosen, 'Notion')).toEqual(['Excel']);
  });

  it('go to the server by question id, never with a question text of their own', () => {
    const answers = { name: ' Ana ', about: 'Bakery', size: '5', plan: 'Pro', tools: ['Excel', 'Notion'] };
    expect(surveyResponses(questions, answers)).toEqual([
      { questionId: 'name', answer: 'Ana' },
      { questionId: 'about', answer: 'Bakery' },
      { questionId: 'size', answer: '5' },
      { questionId: 'plan', answer: 'Pro' },
      { questionId: 'tools', answer: ['Excel', 'Notion'] },
    ]);
  });
});

describe('file answers', () => {
  const file = q('data', 'file');
  const form = [q('name', 'text'), file];
  const uploaded = { fileId: '7d3f5a0e-8c1b-4a49-9f5e-2b6c1d0e9a77', filename: 'a.csv', size: 12 };

  it('are required until a file is uploaded', () => {
    expect(answerIssues(form, { ...initialAnswers(form), name: 'Ana' }, 'en')).toEqual([
      ['data', { key: 'answerFileRequired' }],
    ]);
    expect(answerIssues(form, { name: 'Ana', data: uploaded }, 'en')).toEqual([]);
  });

  it('go to the server as the upload id, never as the file name', () => {
    expect(surveyResponses(form, { name: 'Ana', data: uploaded })).toEqual([
      { questionId: 'name', answer: 'Ana' },
      { questionId: 'data', answer: { fileId: uploaded.fileId } },
    ]);
  });
});
