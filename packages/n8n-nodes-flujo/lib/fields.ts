import type { JsonObject } from './n8n-types';

/** A survey question as the trigger keeps it (from the management API): enough to name the answers. */
export interface QuestionRef {
  id: string;
  type: string;
  question: { es: string; en: string };
}

/** A file answer as Flujo sends it: its facts and a signed link to its bytes. */
export interface FileAnswer {
  filename: string;
  content_type: string;
  size: number;
  url: string;
}

/** The body of Flujo's call to the webhook (docs/webhook-contract.md, section 1). */
export interface FlujoCall {
  workflow_id: string;
  execution_id: string;
  user_id: string;
  secret_token: string;
  responses: Array<{ question: string; answer: unknown }>;
  language: 'es' | 'en';
  callback_url: string;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The call's body if it has the contract's shape, else null (the trigger answers 400 then). */
export function parseFlujoCall(body: unknown): FlujoCall | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if (
    !isText(b.workflow_id) ||
    !isText(b.execution_id) ||
    !isText(b.secret_token) ||
    !isText(b.callback_url) ||
    (b.language !== 'es' && b.language !== 'en') ||
    !Array.isArray(b.responses)
  ) {
    return null;
  }
  const responses = b.responses.filter(
    (r): r is { question: string; answer: unknown } =>
      !!r && typeof r === 'object' && typeof (r as { question?: unknown }).question === 'string',
  );
  return {
    workflow_id: b.workflow_id,
    execution_id: b.execution_id,
    user_id: typeof b.user_id === 'string' ? b.user_id : '',
    secret_token: b.secret_token,
    responses,
    language: b.language,
    callback_url: b.callback_url,
  };
}

export function isFileAnswer(answer: unknown): answer is FileAnswer {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return false;
  const a = answer as Record<string, unknown>;
  return isText(a.filename) && isText(a.url) && typeof a.size === 'number';
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** n8n binary property names are plain identifiers: a question id made into one. */
export function binaryPropertyFor(questionId: string): string {
  const name = questionId.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `q_${name}`;
}

export interface NamedAnswers {
  /** question id → answer; a file answer becomes its facts and the binary property that holds it. */
  answers: JsonObject;
  /** The file answers to download, by the binary property they go to. */
  files: Array<{ property: string; file: FileAnswer }>;
  /** Question texts that match no question the trigger knows (the workflow changed since it looked). */
  unknown: string[];
}

/**
 * A survey's answers as named fields. Flujo sends each question's text in the person's language; it is
 * matched with the workflow's questions in either language, as Flujo itself matches texts.
 */
export function namedAnswers(call: FlujoCall, questions: QuestionRef[]): NamedAnswers {
  const answers: JsonObject = {};
  const files: NamedAnswers['files'] = [];
  const unknown: string[] = [];
  for (const { question, answer } of call.responses) {
    const ref = questions.find((q) => same(q.question.es, question) || same(q.question.en, question));
    if (!ref) {
      unknown.push(question);
      continue;
    }
    if (isFileAnswer(answer)) {
      const property = binaryPropertyFor(ref.id);
      files.push({ property, file: answer });
      answers[ref.id] = {
        filename: answer.filename,
        contentType: answer.content_type,
        size: answer.size,
        binaryProperty: property,
      };
    } else {
      answers[ref.id] = answer;
    }
  }
  return { answers, files, unknown };
}

/** A chat's turns: each item is what the assistant said and what the person answered. */
export function conversationOf(call: FlujoCall): Array<{ assistant: string; person: unknown }> {
  return call.responses.map((r) => ({ assistant: r.question, person: r.answer }));
}

/** The run as later nodes (and the Flujo action node's defaults) read it. */
export function runOf(call: FlujoCall): JsonObject {
  return {
    id: call.execution_id,
    workflowId: call.workflow_id,
    userId: call.user_id,
    secretToken: call.secret_token,
    callbackUrl: call.callback_url,
  };
}
