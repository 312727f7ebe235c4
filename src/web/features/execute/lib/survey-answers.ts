import type { TLanguage } from '#shared/contract/common';
import type { TCompleteRunRequest } from '#shared/contract/executions';
import { type AnswerProblemKey, checkSurveyAnswers } from '#shared/contract/survey-schema';
import { isRequiredQuestion, type TSurveyQuestion } from '#shared/contract/workflows';
import type { ErrorParams } from '#shared/i18n/errors';

/** A file already uploaded to the run for a file question: what the form shows and the complete call names. */
export interface UploadedFileAnswer {
  fileId: string;
  filename: string;
  size: number;
  /**
   * A file kept with the saved answers being edited (decision 159), not uploaded to this run: saving names it
   * again and keeps it; removing or replacing it touches only the form until the answers are saved.
   */
  kept?: true;
}

export type SurveyAnswer = string | string[] | UploadedFileAnswer;
export type SurveyAnswers = Record<string, SurveyAnswer>;
export type SurveyResponse = TCompleteRunRequest['responses'][number];

export const isUploadedFile = (answer: SurveyAnswer | undefined): answer is UploadedFileAnswer =>
  typeof answer === 'object' && answer !== null && !Array.isArray(answer);

/** Whether a question needs an answer (the asterisk in the form): its own flag, as the server reads it. */
export const isRequired = isRequiredQuestion;

/** Answers start empty: an empty string, or an empty list for checkboxes. */
export function initialAnswers(questions: TSurveyQuestion[]): SurveyAnswers {
  return Object.fromEntries(questions.map((q) => [q.id, q.type === 'checkbox' ? [] : '']));
}

/** What is wrong with one answer: a case of the errors namespace (VALIDATION_ERROR) and its values. */
export interface AnswerIssue {
  key: AnswerProblemKey;
  params?: ErrorParams;
}

/**
 * The server's own check of the answers (checkSurveyAnswers), run in the browser before they are sent:
 * the problems by question id, in the form's order; empty when the answers may go. A file question is
 * answered by its upload.
 */
export function answerIssues(
  questions: TSurveyQuestion[],
  answers: SurveyAnswers,
  lng: TLanguage,
): Array<[string, AnswerIssue]> {
  const checked = checkSurveyAnswers(questions, answers, lng, (_q, value) =>
    isUploadedFile(value as SurveyAnswer) ? value : null,
  );
  if (checked.ok) return [];
  return checked.problems.map((p) => [
    p.field.replace(/^answers\./, ''),
    { key: p.key, ...(p.params ? { params: p.params } : {}) },
  ]);
}

/** Ticks or unticks a checkbox option, keeping the options' own order. */
export function toggleOption(options: string[], chosen: string[], option: string): string[] {
  const next = chosen.includes(option) ? chosen.filter((o) => o !== option) : [...chosen, option];
  return options.filter((o) => next.includes(o));
}

/**
 * The complete call's answers: each names its question by id, so the server takes the question's text from
 * the workflow (in the run's language) and checks the answers as the API's; an option goes as the option,
 * a file question as the id of its upload.
 */
export function surveyResponses(questions: TSurveyQuestion[], answers: SurveyAnswers): SurveyResponse[] {
  return questions.map((q): SurveyResponse => {
    const answer = answers[q.id] ?? (q.type === 'checkbox' ? [] : '');
    if (isUploadedFile(answer)) return { questionId: q.id, answer: { fileId: answer.fileId } };
    return { questionId: q.id, answer: Array.isArray(answer) ? answer : answer.trim() };
  });
}
