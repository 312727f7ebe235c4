import type { TSurveyQuestion } from '#shared/contract/workflows';
import type { RunResponse } from './chat-transcript';

export type SurveyAnswer = string | string[];
export type SurveyAnswers = Record<string, SurveyAnswer>;

/** Checkbox questions may stay unticked; every other type needs an answer (the asterisk in the form). */
export function isRequired(question: Pick<TSurveyQuestion, 'type'>): boolean {
  return question.type !== 'checkbox';
}

/** Answers start empty: an empty string, or an empty list for checkboxes. */
export function initialAnswers(questions: TSurveyQuestion[]): SurveyAnswers {
  return Object.fromEntries(questions.map((q) => [q.id, q.type === 'checkbox' ? [] : '']));
}

/** The ids of required questions still without an answer, in the form's order. */
export function missingAnswers(questions: TSurveyQuestion[], answers: SurveyAnswers): string[] {
  return questions
    .filter((q) => isRequired(q))
    .filter((q) => {
      const answer = answers[q.id];
      return Array.isArray(answer) ? answer.length === 0 : !answer?.trim();
    })
    .map((q) => q.id);
}

/** Ticks or unticks a checkbox option, keeping the options' own order. */
export function toggleOption(options: string[], chosen: string[], option: string): string[] {
  const next = chosen.includes(option) ? chosen.filter((o) => o !== option) : [...chosen, option];
  return options.filter((o) => next.includes(o));
}

/** The webhook's responses for a survey: the question in the runner's language and its answer. */
export function surveyResponses(
  questions: TSurveyQuestion[],
  answers: SurveyAnswers,
  questionText: (q: TSurveyQuestion) => string,
): RunResponse[] {
  return questions.map((q) => {
    const answer = answers[q.id] ?? (q.type === 'checkbox' ? [] : '');
    return { question: questionText(q), answer: typeof answer === 'string' ? answer.trim() : answer };
  });
}
