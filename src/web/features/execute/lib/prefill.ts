import { optionText, type TSurveyQuestion } from '#shared/contract/workflows';
import type { RunResponse } from './chat-transcript';
import type { EditSavedState, KeptFile } from '#web/lib/saved-inputs';
import type { SurveyAnswers } from './survey-answers';

/** What "run again" hands the execute screen through the navigation state. */
export interface RunAgainState {
  prefill: RunResponse[];
}

function isResponse(value: unknown): value is RunResponse {
  if (!value || typeof value !== 'object') return false;
  const { question, answer } = value as { question?: unknown; answer?: unknown };
  return (
    typeof question === 'string' &&
    (typeof answer === 'string' || (Array.isArray(answer) && answer.every((a) => typeof a === 'string')))
  );
}

/** The answers carried by the navigation state, if it holds any (history state is whatever was pushed). */
export function prefillFromState(state: unknown): RunResponse[] | null {
  const prefill = (state as { prefill?: unknown } | null)?.prefill;
  return Array.isArray(prefill) && prefill.every(isResponse) ? prefill : null;
}

function isKeptFile(value: unknown): value is KeptFile {
  const f = value as Partial<KeptFile> | null;
  return (
    typeof f === 'object' &&
    f !== null &&
    typeof f.questionId === 'string' &&
    typeof f.fileId === 'string' &&
    typeof f.filename === 'string' &&
    typeof f.size === 'number'
  );
}

/**
 * The saved answers being edited, as the form's starting values (a number as its text), or null. A file
 * answer `{ fileId }` becomes the file kept for that question (its name and size, marked kept); one naming
 * no kept file is left empty, as the review asks for it again.
 */
export function savedFromState(state: unknown): { id: string; name: string; answers: SurveyAnswers } | null {
  const saved = (state as Partial<EditSavedState> | null)?.saved;
  if (!saved || typeof saved.id !== 'string' || typeof saved.name !== 'string') return null;
  const files = Array.isArray(saved.files) ? saved.files.filter(isKeptFile) : [];
  const answers: SurveyAnswers = {};
  for (const [id, value] of Object.entries(saved.answers ?? {})) {
    if (typeof value === 'string') answers[id] = value;
    else if (typeof value === 'number') answers[id] = String(value);
    else if (Array.isArray(value)) answers[id] = value.filter((v): v is string => typeof v === 'string');
    else if (value && typeof value === 'object') {
      const fileId = (value as { fileId?: unknown }).fileId;
      const file = files.find((f) => f.fileId === fileId && f.questionId === id);
      if (file) answers[id] = { fileId: file.fileId, filename: file.filename, size: file.size, kept: true };
    }
  }
  return { id: saved.id, name: saved.name, answers };
}

/** The stored option a sent answer stands for: the option itself, or its label in either language. */
function optionFor(question: TSurveyQuestion, sent: string): string | undefined {
  return question.options.find(
    (o) => o === sent || optionText(question, o, 'es') === sent || optionText(question, o, 'en') === sent,
  );
}

/**
 * A past run's answers as the form's starting values. The answers were sent in the questions' order with the
 * question text of that run's language, so a question is matched by its text in either language first and by
 * its position otherwise; an answer that no longer fits the question (a removed option, a changed type) is
 * left out rather than guessed.
 */
export function prefillAnswers(questions: TSurveyQuestion[], sent: RunResponse[]): SurveyAnswers {
  const answers: SurveyAnswers = {};
  questions.forEach((q, index) => {
    const byText = sent.find((r) => r.question === q.question.es || r.question === q.question.en);
    const response = byText ?? (sent.length === questions.length ? sent[index] : undefined);
    // A file is uploaded again for every run: an earlier run's file is never reused.
    if (!response || q.type === 'file') return;
    const { answer } = response;
    if (q.type === 'checkbox') {
      const list = Array.isArray(answer) ? answer : [answer];
      const chosen = list.map((a) => optionFor(q, a)).filter((o): o is string => o !== undefined);
      answers[q.id] = q.options.filter((o) => chosen.includes(o));
    } else if (typeof answer === 'string') {
      if (q.type === 'select') {
        const option = optionFor(q, answer);
        if (option !== undefined) answers[q.id] = option;
      } else {
        answers[q.id] = answer;
      }
    }
  });
  return answers;
}
