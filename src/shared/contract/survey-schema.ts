import type { ErrorParams } from '../i18n/errors.js';
import { pickLanguage, type TLanguage } from './common.js';
import { acceptedExtensions, isRequiredQuestion, optionText, type TSurveyQuestion } from './workflows.js';

/*
 * A survey's questions as a JSON Schema (what API and MCP clients fill in) and the one check of answers keyed
 * by question id that every path applies: the web form before it sends, the web complete call, POST
 * /api/v1/runs and MCP.
 */

export type JsonSchema = { [key: string]: unknown };

const TEXT_MAX = 20_000;
const CHOICE_MAX = 1000;

function propertyFor(q: TSurveyQuestion, lng: TLanguage): JsonSchema {
  const description = pickLanguage(q.question, lng);
  switch (q.type) {
    case 'number':
      return {
        type: 'number',
        ...(q.min !== undefined ? { minimum: q.min } : {}),
        ...(q.max !== undefined ? { maximum: q.max } : {}),
        description,
      };
    case 'select':
      return { type: 'string', enum: q.options, description };
    case 'checkbox':
      return {
        type: 'array',
        items: { type: 'string', enum: q.options },
        uniqueItems: true,
        ...(isRequiredQuestion(q) ? { minItems: 1 } : {}),
        description,
      };
    case 'file':
      // No value answers it here: files are uploaded through the web app only, and the API refuses such a
      // workflow's runs (VALIDATION_ERROR, fileQuestionsNotSupported). The extension says what it takes.
      return {
        not: {},
        description: `${description} (a file: answered in the web app only)`,
        'x-flujo-file': { accept: acceptedExtensions(q), ...(q.maxSizeMb ? { maxSizeMb: q.maxSizeMb } : {}) },
      };
    default:
      return { type: 'string', minLength: 1, maxLength: TEXT_MAX, description };
  }
}

/** The answers object a survey takes: one property per question id. */
export function surveyInputSchema(questions: TSurveyQuestion[], lng: TLanguage): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(questions.map((q) => [q.id, propertyFor(q, lng)])),
    required: questions.filter(isRequiredQuestion).map((q) => q.id),
    additionalProperties: false,
  };
}

/** What can be wrong with an answer: a case of VALIDATION_ERROR in the error catalogue (src/shared/i18n/errors.ts). */
export type AnswerProblemKey =
  | 'answerUnknownQuestion'
  | 'answerTwice'
  | 'answerRequired'
  | 'answerFileRequired'
  | 'answerNotNumber'
  | 'answerBelowMin'
  | 'answerAboveMax'
  | 'answerOutOfRange'
  | 'answerNotText'
  | 'answerTooLong'
  | 'answerUnknownOption'
  | 'answerNotOptionList'
  | 'answerFileWebOnly'
  | 'answerFileUnknown';

/** A problem with one answer, named by its field (`answers.<question id>`), worded by its catalogue case. */
export interface AnswerProblem {
  field: string;
  key: AnswerProblemKey;
  params?: ErrorParams;
  /** The question's text in the run's language, when the field is a question of the workflow. */
  question?: string;
}

/** One answer as the workflow receives it: the question and the answer in the run's language. */
export interface SurveyResponse<F = never> {
  question: string;
  answer: string | string[] | F;
}

/**
 * How a file question's answer becomes what is kept: the run's uploaded file it names, or null when it names
 * none of that question's uploads. Without one (the API), a file question cannot be answered.
 */
export type FileAnswerOf<F> = (question: TSurveyQuestion, value: unknown) => F | null;

// A number may come as text (the web complete call carries answers as text); a numeral only, no "1e3" or "0x1".
const NUMERAL = /^-?\d+(\.\d+)?$/;

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERAL.test(value.trim())) return Number(value.trim());
  return null;
}

/** The option an answer names: the option itself, or its label in either language. */
function optionOf(q: TSurveyQuestion, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (q.options.includes(value)) return value;
  const labels = q.optionLabels ?? {};
  return q.options.find((o) => labels[o]?.es === value || labels[o]?.en === value) ?? null;
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

function rangeProblem(
  { min, max }: TSurveyQuestion,
  n: number,
): Pick<AnswerProblem, 'key' | 'params'> | null {
  if (min !== undefined && max !== undefined) {
    return n < min || n > max ? { key: 'answerOutOfRange', params: { min, max } } : null;
  }
  if (min !== undefined && n < min) return { key: 'answerBelowMin', params: { min } };
  if (max !== undefined && n > max) return { key: 'answerAboveMax', params: { max } };
  return null;
}

/**
 * Checks answers keyed by question id: an unknown question, a missing required answer, a wrong type, an
 * unknown option, a number out of its range or a file that is not the question's upload is a problem named by
 * its field (`answers.<id>`). Good answers become what the workflow receives, in the questions' order: the
 * question's own text in the run's language (never the client's) and the answer, options as their labels.
 * An optional question left empty is sent empty, as the form sends it.
 */
export function checkSurveyAnswers<F = never>(
  questions: TSurveyQuestion[],
  answers: Record<string, unknown>,
  lng: TLanguage,
  fileAnswer?: FileAnswerOf<F>,
): { ok: true; responses: SurveyResponse<F>[] } | { ok: false; problems: AnswerProblem[] } {
  const problems: AnswerProblem[] = [];
  const known = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(answers)) {
    if (!known.has(id)) problems.push({ field: `answers.${id}`, key: 'answerUnknownQuestion' });
  }
  const responses: SurveyResponse<F>[] = [];
  for (const q of questions) {
    const question = pickLanguage(q.question, lng);
    const value = Object.hasOwn(answers, q.id) ? answers[q.id] : undefined;
    const problem = (key: AnswerProblemKey, params?: ErrorParams) =>
      problems.push({ field: `answers.${q.id}`, key, question, ...(params ? { params } : {}) });
    const options = () => ({ options: q.options.map((o) => optionText(q, o, lng)).join(', ') });
    if (isEmpty(value)) {
      if (isRequiredQuestion(q)) problem(q.type === 'file' ? 'answerFileRequired' : 'answerRequired');
      else responses.push({ question, answer: q.type === 'checkbox' ? [] : '' });
      continue;
    }
    switch (q.type) {
      case 'file': {
        if (!fileAnswer) {
          problem('answerFileWebOnly');
          break;
        }
        const file = fileAnswer(q, value);
        if (file === null) problem('answerFileUnknown');
        else responses.push({ question, answer: file });
        break;
      }
      case 'number': {
        const n = numberOf(value);
        const range = n === null ? null : rangeProblem(q, n);
        if (n === null) problem('answerNotNumber');
        else if (range) problem(range.key, range.params);
        else responses.push({ question, answer: String(n) });
        break;
      }
      case 'select': {
        const option = optionOf(q, value);
        if (option === null) problem('answerUnknownOption', options());
        else responses.push({ question, answer: optionText(q, option, lng) });
        break;
      }
      case 'checkbox': {
        const chosen =
          Array.isArray(value) && value.length <= CHOICE_MAX ? value.map((v) => optionOf(q, v)) : [null];
        if (chosen.some((o) => o === null)) {
          problem('answerNotOptionList', options());
          break;
        }
        // The options' own order, each once, as the web form sends them.
        responses.push({
          question,
          answer: q.options.filter((o) => chosen.includes(o)).map((o) => optionText(q, o, lng)),
        });
        break;
      }
      default:
        if (typeof value !== 'string') problem('answerNotText');
        else if (value.trim().length > TEXT_MAX) problem('answerTooLong', { max: TEXT_MAX });
        else responses.push({ question, answer: value.trim() });
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, responses };
}
