import { pickLanguage, type TLanguage } from '#shared/contract/common.js';
import type { TCompleteRunRequest } from '#shared/contract/executions.js';
import {
  type AnswerProblem,
  checkSurveyAnswers,
  type FileAnswerOf,
  type SurveyResponse,
} from '#shared/contract/survey-schema.js';
import type { TSurveyQuestion } from '#shared/contract/workflows.js';
import { type ErrorParams, errorText } from '#shared/i18n/errors.js';
import { AppError } from '#server/lib/errors.js';

/*
 * The one check of a survey's answers on the server, before anything is stored or charged: the web complete
 * call, POST /api/v1/runs and MCP (which starts its runs through the API's service) all come through
 * surveyAnswersOrThrow.
 */

/** One problem in one language: `"¿Edad?" (answers.age): Escribe un número entre 1 y 120`. */
export function problemText(problem: AnswerProblem, language: TLanguage): string {
  const message = errorText(language, 'VALIDATION_ERROR', problem.key, problem.params);
  const name = problem.question ? `"${problem.question.slice(0, 200)}" (${problem.field})` : problem.field;
  return `${name}: ${message}`;
}

/**
 * Refused answers: 400 VALIDATION_ERROR whose text names every field and its problem in the reader's language
 * (the error handler asks for it with messageIn), and whose details list the fields with their messages in
 * the run's language, for a client to put next to each field.
 */
export class AnswersRefused extends AppError<'VALIDATION_ERROR'> {
  constructor(
    readonly problems: AnswerProblem[],
    language: TLanguage,
  ) {
    super(
      'VALIDATION_ERROR',
      { key: 'invalidAnswers', params: { problems: problems.map((p) => problemText(p, 'en')).join('; ') } },
      {
        fields: problems.map((p) => ({
          field: p.field,
          message: errorText(language, 'VALIDATION_ERROR', p.key, p.params),
          key: p.key,
          ...(p.params ? { params: p.params } : {}),
        })),
      },
    );
  }

  override paramsIn(language: TLanguage): ErrorParams {
    return { problems: this.problems.map((p) => problemText(p, language)).join('; ') };
  }
}

/** The answers as the workflow receives them, or AnswersRefused naming every problem. */
export function surveyAnswersOrThrow<F = never>(
  questions: TSurveyQuestion[],
  answers: Record<string, unknown>,
  language: TLanguage,
  fileAnswer?: FileAnswerOf<F>,
  /** Problems found before the answers were keyed by question (the web complete call's list). */
  earlier: AnswerProblem[] = [],
): SurveyResponse<F>[] {
  const checked = checkSurveyAnswers(questions, answers, language, fileAnswer);
  if (checked.ok && earlier.length === 0) return checked.responses;
  throw new AnswersRefused([...earlier, ...(checked.ok ? [] : checked.problems)], language);
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The web complete call's list of answers keyed by question id. An item names its question by `questionId`
 * (the web app), or by the question's text in either language (the spec's `{ question, answer }`); the text
 * the client sent is never what the workflow receives. An item that names no question of the workflow, or a
 * question named twice, is a problem of its own.
 */
export function answersByQuestion(
  questions: TSurveyQuestion[],
  responses: TCompleteRunRequest['responses'],
  language: TLanguage,
): { answers: Record<string, unknown>; problems: AnswerProblem[] } {
  // No prototype, so a question id such as "__proto__" is a key like any other.
  const answers = Object.create(null) as Record<string, unknown>;
  const problems: AnswerProblem[] = [];
  responses.forEach((item, index) => {
    const id =
      item.questionId ??
      questions.find(
        (q) =>
          item.question !== undefined &&
          (sameText(q.question.es, item.question) || sameText(q.question.en, item.question)),
      )?.id;
    if (id === undefined) {
      problems.push({ field: `responses.${index}`, key: 'answerUnknownQuestion' });
      return;
    }
    if (Object.hasOwn(answers, id)) {
      const q = questions.find((x) => x.id === id);
      problems.push({
        field: `answers.${id}`,
        key: 'answerTwice',
        ...(q ? { question: pickLanguage(q.question, language) } : {}),
      });
      return;
    }
    answers[id] = item.answer;
  });
  return { answers, problems };
}
