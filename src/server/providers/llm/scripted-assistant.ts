import type { TLanguage } from '#shared/contract/common.js';
import { LlmError, type LlmCompletionRequest, type LlmProvider } from './types.js';

/**
 * The built-in assistant used when no LLM is configured, so a fresh install can run chat workflows.
 * It is deterministic: it asks two or three questions taken from the workflow's AI prompt (sentences that
 * end in "?", in the user's language; generic ones fill the gaps), then sums the answers up and ends with
 * the completion marker. The chat screen labels its replies as the demo assistant's (the workflow's
 * `demoAssistant`), so nobody mistakes it for an LLM; the label is not part of the replies, so the
 * conversation the workflow receives holds only what was said.
 */

const MARKER: Record<TLanguage, string> = {
  en: '[CONVERSATION_COMPLETE]',
  es: '[CONVERSACIÓN_COMPLETADA]',
};

const GENERIC_QUESTIONS: Record<TLanguage, string[]> = {
  en: [
    'What would you like to achieve with this workflow?',
    'Which details should be taken into account (names, dates, amounts)?',
    'Anything else, such as the tone or the format you prefer?',
  ],
  es: [
    '¿Qué te gustaría conseguir con este workflow?',
    '¿Qué detalles hay que tener en cuenta (nombres, fechas, importes)?',
    '¿Algo más, como el tono o el formato que prefieres?',
  ],
};

const TEXT: Record<TLanguage, { ack: string; summary: string; sending: string }> = {
  en: {
    ack: 'Got it.',
    summary: 'Thank you, I have everything I need. Here is a summary of your answers:',
    sending: 'I am sending it to the workflow now.',
  },
  es: {
    ack: 'Entendido.',
    summary: 'Gracias, ya tengo todo lo que necesito. Este es el resumen de tus respuestas:',
    sending: 'Lo envío ahora al workflow.',
  },
};

const MIN_SCRIPTED_QUESTIONS = 2;
const MAX_SCRIPTED_QUESTIONS = 3;

/** Questions of the AI prompt in the given language: Spanish ones open with "¿", English ones do not. */
export function questionsFromPrompt(aiPrompt: string | null | undefined, language: TLanguage): string[] {
  if (!aiPrompt) return [];
  const candidates = aiPrompt.match(/¿?[^.!?¿\n:;]*\?/g) ?? [];
  const picked: string[] = [];
  for (const raw of candidates) {
    const question = raw.replace(/^[\s\-*\d.)]+/, '').trim();
    if (question.length < 8) continue;
    const isSpanish = question.startsWith('¿');
    if ((language === 'es') !== isSpanish) continue;
    if (!picked.includes(question)) picked.push(question);
  }
  return picked.slice(0, MAX_SCRIPTED_QUESTIONS);
}

/** The questions the scripted assistant asks for this workflow, in order (two or three). */
export function scriptedQuestions(aiPrompt: string | null | undefined, language: TLanguage): string[] {
  const questions = questionsFromPrompt(aiPrompt, language);
  for (const generic of GENERIC_QUESTIONS[language]) {
    if (questions.length >= MIN_SCRIPTED_QUESTIONS) break;
    questions.push(generic);
  }
  return questions;
}

/** Milliseconds between the words of a streamed reply by default: about the pace of a quick model. */
const SCRIPTED_WORD_MS = 40;

export function createScriptedAssistant(
  workflow: { aiPrompt: string | null },
  language: TLanguage,
  options: { wordMs?: number } = {},
): LlmProvider {
  const questions = scriptedQuestions(workflow.aiPrompt, language);
  const text = TEXT[language];
  const wordMs = options.wordMs ?? SCRIPTED_WORD_MS;
  // The welcome message (shown by the client, not sent) asks for the first answer; then one question
  // follows each user message until all are asked.
  const reply = ({ messages, final }: LlmCompletionRequest): string => {
    const answers = messages.filter((m) => m.role === 'user').map((m) => m.content.trim());
    if (answers.length === 0) return questions[0] ?? '';
    const next = final ? undefined : questions[answers.length - 1];
    if (next !== undefined) return `${text.ack} ${next}`;
    const lines = answers.map((answer, i) => `${i + 1}. ${answer.replace(/\s+/g, ' ').slice(0, 300)}`);
    return `${text.summary}\n${lines.join('\n')}\n\n${text.sending} ${MARKER[language]}`;
  };
  return {
    async complete(request: LlmCompletionRequest): Promise<string> {
      return reply(request);
    },
    // Word by word at a steady pace, so the embedded mode shows a reply being written as a model would.
    async *stream(request: LlmCompletionRequest, signal: AbortSignal): AsyncIterable<string> {
      const words = reply(request).match(/\S+\s*/g) ?? [];
      for (const [i, word] of words.entries()) {
        if (i > 0 && wordMs > 0) await sleep(wordMs, signal);
        if (signal.aborted) throw new LlmError('The reply was stopped', 'aborted');
        yield word;
      }
    },
  };
}

/** Waits, or less when the signal aborts (the caller then sees the abort). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
