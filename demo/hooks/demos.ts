import type { FastifyBaseLogger } from 'fastify';
import { csvFile } from '../files/csv.js';
import { pdfDocument, type PdfLine } from '../files/pdf.js';
import { barChartPng } from '../files/png.js';
import { xlsxWorkbook } from '../files/xlsx.js';
import { postJsonResult, postMultipartResult, type CallbackTarget } from './callback.js';
import type { TDemoResult, TFileAnswer, TWebhookCall } from './contract.js';
import { summariseCsv } from './csv-summary.js';

/** The demo services, one per path under /demo-hooks. */
export const DEMO_SLUGS = [
  'chat-summary',
  'survey-csv',
  'expense-xlsx',
  'chart-png',
  'report-pdf',
  'slow-research',
  'always-fails',
  'csv-summary',
] as const;
export type DemoSlug = (typeof DEMO_SLUGS)[number];

export interface DemoContext {
  call: TWebhookCall;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Milliseconds between the slow demo's progress messages (DEMO_SLOW_STEP_MS). */
  slowStepMs: number;
  /** Runs a task later in this process (timers are cleared when the app closes). */
  later(delayMs: number, task: () => Promise<void>): void;
}

/** A result in the webhook's own answer, or `{ received: true }` now and the result posted later. */
export type DemoAnswer = { kind: 'sync'; result: TDemoResult } | { kind: 'async' };

type Texts = { en: string; es: string };
const say = (call: TWebhookCall, texts: Texts) => texts[call.language];

type Answer = TWebhookCall['responses'][number]['answer'];
const isFile = (answer: Answer): answer is TFileAnswer =>
  typeof answer === 'object' && !Array.isArray(answer);
/** An answer as one line of text: a list joined, a file by its name. */
const answerText = (answer: Answer) =>
  Array.isArray(answer) ? answer.join('; ') : isFile(answer) ? answer.filename : answer;
const shortId = (call: TWebhookCall) => call.execution_id.slice(0, 8);
const dateOf = (now: Date) => now.toISOString().slice(0, 10);

function target(call: TWebhookCall): CallbackTarget {
  return { url: call.callback_url, executionId: call.execution_id, secretToken: call.secret_token };
}

/** A number answer as a number (accepting a decimal comma), otherwise the text. */
function cellValue(answer: Answer): string | number {
  const text = answerText(answer).trim();
  const number = Number(text.replace(',', '.'));
  return text !== '' && /^-?[\d.,]+$/.test(text) && Number.isFinite(number) ? number : text;
}

/** Posts later, logging instead of throwing: a lost callback leaves the run to expire and be refunded. */
function postLater(ctx: DemoContext, delayMs: number, post: () => Promise<void>): void {
  ctx.later(delayMs, async () => {
    try {
      await post();
    } catch (err) {
      ctx.log.warn({ err, executionId: ctx.call.execution_id }, 'demo workflow callback failed');
    }
  });
}

const HANDLERS: Record<DemoSlug, (ctx: DemoContext) => DemoAnswer> = {
  /**
   * Chatbot: a text summary of the conversation, in the webhook's own answer. (Key names matter for display:
   * PostgreSQL's jsonb orders keys shortest first, and `message` should come first in the result panel.)
   */
  'chat-summary': ({ call }) => {
    const points = call.responses.map((r) => ({ question: r.question, answer: answerText(r.answer) }));
    // Markdown: the result screen formats a text result's message, so the brief reads as a list.
    const lines = points.map((p) => `- ${p.answer}`).join('\n');
    return {
      kind: 'sync',
      result: {
        status: 'completed',
        output_type: 'text',
        output_data: {
          message: say(call, {
            en: `**Here is the brief** prepared from your conversation:\n\n${lines}`,
            es: `**Este es el resumen** preparado a partir de tu conversación:\n\n${lines}`,
          }),
          conversation: points,
        },
      },
    };
  },

  /** Survey: the answers as a CSV file (base64) in the webhook's own answer. */
  'survey-csv': ({ call }) => {
    const header = call.language === 'es' ? ['Pregunta', 'Respuesta'] : ['Question', 'Answer'];
    const bytes = csvFile([header, ...call.responses.map((r) => [r.question, answerText(r.answer)])]);
    return {
      kind: 'sync',
      result: {
        status: 'completed',
        output_type: 'file',
        filename: `${call.language === 'es' ? 'respuestas' : 'answers'}-${shortId(call)}.csv`,
        file_data: bytes.toString('base64'),
        output_data: {
          message: say(call, {
            en: `Your ${call.responses.length} answers, ready to open in a spreadsheet.`,
            es: `Tus ${call.responses.length} respuestas, listas para abrir en una hoja de cálculo.`,
          }),
        },
      },
    };
  },

  /** Survey: an .xlsx workbook, posted a moment later to callback_url as multipart (like n8n). */
  'expense-xlsx': (ctx) => {
    const { call } = ctx;
    const header = call.language === 'es' ? ['Concepto', 'Valor'] : ['Item', 'Value'];
    const rows = [header, ...call.responses.map((r) => [r.question, cellValue(r.answer)])];
    const filename = `${call.language === 'es' ? 'gastos' : 'expenses'}-${shortId(call)}.xlsx`;
    const bytes = xlsxWorkbook(call.language === 'es' ? 'Gastos' : 'Expenses', rows);
    postLater(ctx, 1500, () =>
      postMultipartResult(
        target(call),
        {
          status: 'completed',
          output_type: 'file',
          output_data: {
            message: say(call, {
              en: `Expense report generated on ${dateOf(ctx.now())}.`,
              es: `Informe de gastos generado el ${dateOf(ctx.now())}.`,
            }),
          },
        },
        {
          bytes,
          filename,
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        },
      ),
    );
    return { kind: 'async' };
  },

  /** Survey: a PNG bar chart of the answers (numbers as they are, other answers by length). */
  'chart-png': ({ call }) => {
    const values = call.responses.map((r) => {
      const value = cellValue(r.answer);
      if (typeof value === 'number') return value;
      return Array.isArray(r.answer) ? r.answer.length : value.length;
    });
    return {
      kind: 'sync',
      result: {
        status: 'completed',
        output_type: 'image',
        filename: `chart-${shortId(call)}.png`,
        file_data: barChartPng(values).toString('base64'),
        output_data: {
          message: say(call, {
            en: 'Your figures as a bar chart, one bar per answer in the order of the questions.',
            es: 'Tus cifras en un gráfico de barras, una barra por respuesta en el orden de las preguntas.',
          }),
          values,
        },
      },
    };
  },

  /** Survey: a PDF report of the answers, posted a moment later to callback_url as JSON with base64. */
  'report-pdf': (ctx) => {
    const { call } = ctx;
    const title = say(call, { en: 'Incident report', es: 'Informe de incidencia' });
    const lines: PdfLine[] = [
      {
        text: say(call, {
          en: `Reference ${shortId(call)}, ${dateOf(ctx.now())}`,
          es: `Referencia ${shortId(call)}, ${dateOf(ctx.now())}`,
        }),
      },
      { text: '' },
      ...call.responses.flatMap((r) => [
        { text: r.question, bold: true },
        { text: answerText(r.answer) || '-' },
        { text: '' },
      ]),
    ];
    const bytes = pdfDocument(title, lines);
    postLater(ctx, 1000, () =>
      postJsonResult(target(call), {
        status: 'completed',
        output_type: 'file',
        filename: `${call.language === 'es' ? 'informe' : 'report'}-${shortId(call)}.pdf`,
        file_data: bytes.toString('base64'),
        output_data: { message: say(call, { en: 'Your report is ready.', es: 'Tu informe está listo.' }) },
      }),
    );
    return { kind: 'async' };
  },

  /** Chatbot: four steps of work (about 20 seconds by default) with three progress messages, then a text result. */
  'slow-research': (ctx) => {
    const { call } = ctx;
    const steps: Texts[] = [
      { en: 'Reading your answers…', es: 'Leyendo tus respuestas…' },
      { en: 'Comparing with market data…', es: 'Comparando con datos de mercado…' },
      { en: 'Writing the report…', es: 'Redactando el informe…' },
    ];
    steps.forEach((step, i) => {
      postLater(ctx, (i + 1) * ctx.slowStepMs, () =>
        postJsonResult(target(call), { status: 'running', output_data: { message: say(call, step) } }),
      );
    });
    const topics = call.responses.map((r) => answerText(r.answer)).filter(Boolean);
    postLater(ctx, (steps.length + 1) * ctx.slowStepMs, () =>
      postJsonResult(target(call), {
        status: 'completed',
        output_type: 'text',
        output_data: {
          message: say(call, {
            en: `Market research finished. Based on ${topics.length} answers, the opportunity looks promising: start with a small pilot, measure for four weeks, then scale.`,
            es: `Estudio de mercado terminado. Con ${topics.length} respuestas, la oportunidad parece prometedora: empieza con un piloto pequeño, mide durante cuatro semanas y después escala.`,
          }),
          based_on_answers: topics,
        },
      }),
    );
    return { kind: 'async' };
  },

  /**
   * Survey with a file question: reads the uploaded CSV through its signed link and answers a text summary
   * (rows, columns, figures of the numeric columns), posted a moment later to callback_url.
   */
  'csv-summary': (ctx) => {
    const { call } = ctx;
    const file = call.responses.map((r) => r.answer).find(isFile);
    const wanted = call.responses.flatMap((r) => (Array.isArray(r.answer) ? r.answer : []));
    postLater(ctx, 300, async () => {
      let result: TDemoResult;
      try {
        if (!file) throw new Error('no file answer');
        const summary = summariseCsv(await fetchCsv(file), call.language, wanted);
        result = {
          status: 'completed',
          output_type: 'text',
          output_data: { message: `**${file.filename}**\n\n${summary}` },
        };
      } catch (err) {
        ctx.log.warn({ err, executionId: call.execution_id }, 'csv summary could not read its file');
        result = {
          status: 'failed',
          error_message: say(call, {
            en: 'The CSV file could not be read.',
            es: 'No se pudo leer el archivo CSV.',
          }),
        };
      }
      await postJsonResult(target(call), result);
    });
    return { kind: 'async' };
  },

  /** Any type: always reports a failure with a clear reason, so the refund path can be seen. */
  'always-fails': ({ call }) => ({
    kind: 'sync',
    result: {
      status: 'failed',
      output_type: 'text',
      error_message: say(call, {
        en: 'The inventory system refused the connection (this demo workflow always fails; your credits are refunded).',
        es: 'El sistema de inventario rechazó la conexión (este workflow de demostración siempre falla; se te devuelven los créditos).',
      }),
      output_data: {
        message: say(call, { en: 'Inventory sync failed.', es: 'Falló la sincronización de inventario.' }),
      },
    },
  }),
};

/** The largest CSV the summary reads: the question takes 2 MB at most. */
const CSV_FETCH_MAX = 2 * 1024 * 1024;

async function fetchCsv(file: TFileAnswer): Promise<string> {
  // The link is signed and short-lived; it needs no session and nothing else.
  const res = await fetch(file.url, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`the file link answered ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > CSV_FETCH_MAX) throw new Error('the file is larger than the summary reads');
  return bytes.toString('utf8');
}

export function runDemo(slug: DemoSlug, ctx: DemoContext): DemoAnswer {
  return HANDLERS[slug](ctx);
}
