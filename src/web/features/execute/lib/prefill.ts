import { optionText, type TSurveyQuestion } from '#shared/contract/workflows';
import type { RunResponse } from './chat-transcript';
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
