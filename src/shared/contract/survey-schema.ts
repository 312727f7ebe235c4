import { pickLanguage, type TLanguage } from './common.js';
import { acceptedExtensions, optionText, type TSurveyQuestion } from './workflows.js';

/*
 * A survey's questions as a JSON Schema (what API and MCP clients fill in) and the check of answers keyed by
 * question id against it. The web form's rules are the model: every question but a checkbox needs an answer.
 */

export type JsonSchema = { [key: string]: unknown };

const TEXT_MAX = 20_000;
const CHOICE_MAX = 1000;

export const isRequiredQuestion = (q: Pick<TSurveyQuestion, 'type'>) => q.type !== 'checkbox';

function propertyFor(q: TSurveyQuestion, lng: TLanguage): JsonSchema {
  const description = pickLanguage(q.question, lng);
  switch (q.type) {
    case 'number':
      return { type: 'number', description };
    case 'select':
      return { type: 'string', enum: q.options, description };
    case 'checkbox':
      return { type: 'array', items: { type: 'string', enum: q.options }, uniqueItems: true, description };
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

export interface AnswerProblem {
  field: string;
  message: string;
}

/** One answer as the workflow receives it: the question and the answer in the run's language. */
export interface SurveyResponse {
  question: string;
  answer: string | string[];
}

/**
 * Checks answers keyed by question id: a wrong type, an unknown option, a missing required answer or an
 * unknown question is a problem named by its field (`answers.<id>`). Good answers become the responses the
 * web form would have sent (option labels in the run's language).
 */
export function checkSurveyAnswers(
  questions: TSurveyQuestion[],
  answers: Record<string, unknown>,
  lng: TLanguage,
): { ok: true; responses: SurveyResponse[] } | { ok: false; problems: AnswerProblem[] } {
  const problems: AnswerProblem[] = [];
  const known = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(answers)) {
    if (!known.has(id)) problems.push({ field: `answers.${id}`, message: 'Unknown question' });
  }
  const responses: SurveyResponse[] = [];
  for (const q of questions) {
    const field = `answers.${q.id}`;
    const value = answers[q.id];
    const question = pickLanguage(q.question, lng);
    if (value === undefined || value === null || value === '') {
      if (isRequiredQuestion(q)) problems.push({ field, message: 'Required' });
      responses.push({ question, answer: q.type === 'checkbox' ? [] : '' });
      continue;
    }
    switch (q.type) {
      case 'file':
        problems.push({ field, message: 'File questions are answered in the web app only' });
        break;
      case 'number': {
        const n = typeof value === 'number' ? value : Number.NaN;
        if (!Number.isFinite(n)) problems.push({ field, message: 'Expected a number' });
        else responses.push({ question, answer: String(n) });
        break;
      }
      case 'select':
        if (typeof value !== 'string') problems.push({ field, message: 'Expected a string' });
        else if (!q.options.includes(value)) {
          problems.push({ field, message: `Expected one of: ${q.options.join(', ')}` });
        } else responses.push({ question, answer: optionText(q, value, lng) });
        break;
      case 'checkbox': {
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
          problems.push({ field, message: 'Expected a list of strings' });
          break;
        }
        const chosen = value as string[];
        const unknown = chosen.filter((v) => !q.options.includes(v));
        if (unknown.length > 0 || chosen.length > CHOICE_MAX) {
          problems.push({ field, message: `Expected options among: ${q.options.join(', ')}` });
        } else {
          // The options' own order, each once, as the web form sends them.
          responses.push({
            question,
            answer: q.options.filter((o) => chosen.includes(o)).map((o) => optionText(q, o, lng)),
          });
        }
        break;
      }
      default:
        if (typeof value !== 'string') problems.push({ field, message: 'Expected a string' });
        else if (!value.trim()) {
          if (isRequiredQuestion(q)) problems.push({ field, message: 'Required' });
        } else if (value.length > TEXT_MAX)
          problems.push({ field, message: `At most ${TEXT_MAX} characters` });
        else responses.push({ question, answer: value.trim() });
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, responses };
}
