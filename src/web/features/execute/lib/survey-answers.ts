import type { TCompleteRunRequest } from '#shared/contract/executions';
import { optionText, type TSurveyQuestion } from '#shared/contract/workflows';

/** A file already uploaded to the run for a file question: what the form shows and the complete call names. */
export interface UploadedFileAnswer {
  fileId: string;
  filename: string;
  size: number;
}

export type SurveyAnswer = string | string[] | UploadedFileAnswer;
export type SurveyAnswers = Record<string, SurveyAnswer>;
export type SurveyResponse = TCompleteRunRequest['responses'][number];

export const isUploadedFile = (answer: SurveyAnswer | undefined): answer is UploadedFileAnswer =>
  typeof answer === 'object' && answer !== null && !Array.isArray(answer);

/** Checkbox questions may stay unticked; every other type needs an answer (the asterisk in the form). */
export function isRequired(question: Pick<TSurveyQuestion, 'type'>): boolean {
  return question.type !== 'checkbox';
}

/** Answers start empty: an empty string, or an empty list for checkboxes. */
export function initialAnswers(questions: TSurveyQuestion[]): SurveyAnswers {
  return Object.fromEntries(questions.map((q) => [q.id, q.type === 'checkbox' ? [] : '']));
}

/** The ids of required questions still without an answer, in the form's order (a file question: no upload yet). */
export function missingAnswers(questions: TSurveyQuestion[], answers: SurveyAnswers): string[] {
  return questions
    .filter((q) => isRequired(q))
    .filter((q) => {
      const answer = answers[q.id];
      if (q.type === 'file') return !isUploadedFile(answer);
      if (isUploadedFile(answer)) return true;
      return Array.isArray(answer) ? answer.length === 0 : !answer?.trim();
    })
    .map((q) => q.id);
}

/** Ticks or unticks a checkbox option, keeping the options' own order. */
export function toggleOption(options: string[], chosen: string[], option: string): string[] {
  const next = chosen.includes(option) ? chosen.filter((o) => o !== option) : [...chosen, option];
  return options.filter((o) => next.includes(o));
}

/**
 * The webhook's responses for a survey: the question in the runner's language and its answer; a chosen option
 * goes as its label in that language too, so a service gets one language per run. A file question answers
 * with the id of its upload; the server sends the workflow the file's facts and a link instead.
 */
export function surveyResponses(
  questions: TSurveyQuestion[],
  answers: SurveyAnswers,
  questionText: (q: TSurveyQuestion) => string,
  lng: string,
): SurveyResponse[] {
  return questions.flatMap((q): SurveyResponse[] => {
    const answer = answers[q.id] ?? (q.type === 'checkbox' ? [] : '');
    if (q.type === 'file') {
      return isUploadedFile(answer) ? [{ question: questionText(q), answer: { fileId: answer.fileId } }] : [];
    }
    if (isUploadedFile(answer)) return [{ question: questionText(q), answer: '' }];
    if (Array.isArray(answer))
      return [{ question: questionText(q), answer: answer.map((o) => optionText(q, o, lng)) }];
    const text = q.type === 'select' && answer ? optionText(q, answer, lng) : answer.trim();
    return [{ question: questionText(q), answer: text }];
  });
}
