import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  McpError,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { type TLanguage, ZUuid } from '#shared/contract/common.js';
import type { TPublicHealth } from '#shared/contract/operations.js';
import type { TApiRun } from '#shared/contract/public-api.js';
import { formatRoughDuration } from '#shared/i18n/durations.js';
import { AppError } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import type { ApiPrincipal } from '../apikeys/service.js';
import { isOpen, runEventsOf } from '../executions/service.js';
import { monthlyHealthOf, publicHealth } from '../operations/service.js';
import { resultFileFor } from '../results/service.js';
import { type ApiRunOutcome, acceptApiChatMessage, getApiRun, startApiRun } from './api-runs.js';
import { listSavedInputs, startSavedInputApiRun } from './saved-inputs.js';
import { type ApiWorkflowRow, apiWorkflowRows, toApiWorkflow } from './service.js';

/** How long a workflow tool waits for its run before answering with the run as it stands. */
const MCP_RUN_WAIT_MS = 120_000;
const NAME_MAX = 64;

/** send_message's arguments; the text's own limit (chat_max_message_chars) is the chat service's to say. */
const ZSendMessage = z.object({ conversationId: ZUuid, text: z.string().min(1).max(8000) });

/** What a request handler gets besides its request: its signal, its `_meta` and a way to notify. */
type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const TEXTS = {
  en: {
    price: (n: number) => `${n} credit${n === 1 ? '' : 's'} per run.`,
    health: (percent: number, duration: string | null) =>
      `Succeeds ${percent}% of the time${duration ? ` and usually takes about ${duration}` : ''} (last 30 days).`,
    noHealth: 'Too few runs in the last 30 days to state its success rate and typical duration.',
    list: 'Lists the public workflows you can run, with their price in credits.',
    balance: 'Your credit balance, what this API key spent this month and its monthly limit.',
    run: 'A run started earlier, by its id: its status and result.',
    runId: 'The run id a workflow tool returned',
    stillRunning: (id: string) => `The run ${id} is still working; ask get_run for it later.`,
    failed: (m: string) => `The run failed: ${m}`,
    badRunId: 'runId must be the id of a run (a UUID such as a workflow tool returns).',
    savedList:
      'Lists your saved answers (a survey workflow and its answers, kept under a name), newest first.',
    savedRun:
      'Runs your saved answers by their id (from list_saved_inputs): charges the workflow price and waits for the result.',
    savedInputId: 'The id of your saved answers',
    badSavedInputId:
      'savedInputId must be the id of saved answers (a UUID such as list_saved_inputs returns).',
    unknownTool: (name: string) => `There is no tool named ${name}; ask tools/list for the current tools.`,
    unknownResource: 'There is no such resource: read the links a tool answered (a run result).',
    startChat:
      'Starts a conversation with a chat workflow (list_workflows shows them, interactionType "chatbot") and ' +
      "answers the assistant's welcome and the conversation id for send_message. Nothing is charged yet: your " +
      "first message charges the workflow's price once.",
    chatWorkflowId: 'The id of a chat workflow, from list_workflows',
    badChatWorkflowId:
      'workflowId must be the id of a chat workflow (a UUID such as list_workflows returns).',
    notAChat: 'This workflow is not a chat; run it with its own tool (tools/list).',
    sendMessage:
      "Sends your next message in a conversation and answers the assistant's reply. The first message charges " +
      "the workflow's price (not refunded if you leave the conversation; refunded if the run then fails). When " +
      'the reply ends the conversation, the run is submitted to the workflow and the tool answers its result as well.',
    conversationId: 'The conversation id start_conversation answered',
    messageText: 'Your message',
    badConversationId:
      'conversationId must be the id start_conversation answered (a UUID), and text a non-empty message.',
    unexpected: (requestId: string) =>
      `Something went wrong on our side. Try again; if it happens again, quote the request id ${requestId}.`,
  },
  es: {
    price: (n: number) => `${n} crédito${n === 1 ? '' : 's'} por ejecución.`,
    health: (percent: number, duration: string | null) =>
      `Sale bien el ${percent} % de las veces${duration ? ` y suele tardar unos ${duration}` : ''} (últimos 30 días).`,
    noHealth:
      'Aún tiene pocas ejecuciones en los últimos 30 días para indicar cuántas salen bien y cuánto suelen tardar.',
    list: 'Lista los workflows públicos que puedes ejecutar, con su precio en créditos.',
    balance: 'Tu saldo de créditos, lo que esta clave de API gastó este mes y su límite mensual.',
    run: 'Una ejecución iniciada antes, por su id: su estado y su resultado.',
    runId: 'El id de ejecución que devolvió una herramienta de flujo',
    stillRunning: (id: string) => `La ejecución ${id} sigue en marcha; pídela más tarde con get_run.`,
    failed: (m: string) => `La ejecución falló: ${m}`,
    badRunId:
      'runId debe ser el id de una ejecución (un UUID como los que devuelven las herramientas de flujo).',
    savedList:
      'Lista tus respuestas guardadas (un workflow de encuesta y sus respuestas, con un nombre), de la más nueva a la más antigua.',
    savedRun:
      'Ejecuta tus respuestas guardadas por su id (de list_saved_inputs): cobra el precio del workflow y espera el resultado.',
    savedInputId: 'El id de tus respuestas guardadas',
    badSavedInputId:
      'savedInputId debe ser el id de unas respuestas guardadas (un UUID como los que devuelve list_saved_inputs).',
    unknownTool: (name: string) =>
      `No hay ninguna herramienta llamada ${name}; pide tools/list para ver las actuales.`,
    unknownResource:
      'No existe ese recurso: lee los enlaces que respondió una herramienta (el resultado de una ejecución).',
    startChat:
      'Empieza una conversación con un workflow de chat (list_workflows los muestra, interactionType "chatbot") y ' +
      'responde la bienvenida del asistente y el id de conversación para send_message. Aún no se cobra nada: tu ' +
      'primer mensaje cobra una vez el precio del workflow.',
    chatWorkflowId: 'El id de un workflow de chat, de list_workflows',
    badChatWorkflowId:
      'workflowId debe ser el id de un workflow de chat (un UUID como los que devuelve list_workflows).',
    notAChat: 'Este workflow no es un chat; ejecútalo con su propia herramienta (tools/list).',
    sendMessage:
      'Envía tu siguiente mensaje de una conversación y responde la respuesta del asistente. El primer mensaje ' +
      'cobra el precio del workflow (no se devuelve si dejas la conversación; sí si la ejecución falla después). ' +
      'Cuando la respuesta termina la conversación, la ejecución se envía al workflow y la herramienta responde ' +
      'también su resultado.',
    conversationId: 'El id de conversación que respondió start_conversation',
    messageText: 'Tu mensaje',
    badConversationId:
      'conversationId debe ser el id que respondió start_conversation (un UUID), y text un mensaje no vacío.',
    unexpected: (requestId: string) =>
      `Algo falló por nuestra parte. Inténtalo de nuevo; si vuelve a pasar, indica el id de petición ${requestId}.`,
  },
} as const;

/** A tool name from the workflow's English name: lowercase letters, digits and underscores. */
function slugOf(row: ApiWorkflowRow): string {
  const base = row.name.en
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (base || 'workflow').slice(0, NAME_MAX - 9);
}

/**
 * One tool per public active survey workflow that asks for no file (files are uploaded in the web app only).
 * Names come from the workflow's English name; two workflows of the same name are told apart by the start
 * of their ids, so a name stays the same while its workflow does.
 */
function workflowTools(rows: ApiWorkflowRow[]): Map<string, ApiWorkflowRow> {
  const surveys = rows.filter(
    (r) => r.interactionType === 'survey' && !r.surveyQuestions.some((q) => q.type === 'file'),
  );
  const counts = new Map<string, number>();
  for (const row of surveys) counts.set(slugOf(row), (counts.get(slugOf(row)) ?? 0) + 1);
  const tools = new Map<string, ApiWorkflowRow>();
  for (const row of surveys) {
    const slug = slugOf(row);
    tools.set((counts.get(slug) ?? 0) > 1 ? `${slug}_${row.id.slice(0, 8)}` : slug, row);
  }
  return tools;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const toolError = (value: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: value }],
});
const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

/** A finished run as MCP content: text as text, a stored image as an image, any other file as a link. */
async function runContent(
  deps: AppDeps,
  userId: string,
  run: TApiRun,
  lng: TLanguage,
): Promise<CallToolResult> {
  if (run.status === 'failed' || run.status === 'expired') {
    return toolError(TEXTS[lng].failed(run.errorMessage ?? run.status));
  }
  if (isOpen(run.status)) return text(TEXTS[lng].stillRunning(run.id));
  const content: CallToolResult['content'] = [];
  if (run.outputData !== null && run.outputData !== undefined) {
    content.push({
      type: 'text',
      text: typeof run.outputData === 'string' ? run.outputData : JSON.stringify(run.outputData, null, 2),
    });
  }
  if (run.resultUrl) {
    const file = await resultFileFor(deps, { id: userId, isAdmin: false }, run.id);
    if (run.outputType === 'image') {
      content.push({ type: 'image', data: file.bytes.toString('base64'), mimeType: file.contentType });
    } else {
      content.push({
        type: 'resource_link',
        uri: run.resultUrl,
        name: run.outputFilename ?? 'result',
        mimeType: file.contentType,
        description: 'Read with resources/read, or fetch with the same Authorization: Bearer credential',
      });
    }
  } else if (run.outputUrl) {
    content.push({ type: 'resource_link', uri: run.outputUrl, name: run.outputFilename ?? 'result' });
  }
  if (content.length === 0) content.push({ type: 'text', text: run.status });
  return { content, structuredContent: { runId: run.id, status: run.status, creditsUsed: run.creditsUsed } };
}

/** MCP's code for a resource that is not there (or not the caller's). */
const RESOURCE_NOT_FOUND = -32002;

/** Result files an MCP client reads as text rather than as base64. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|csv|x-ndjson)\b)/;

/**
 * A result file as an MCP resource, read with the same check as its download (the caller's own run). The
 * resource's URI is the file's address under /api/v1, so an agent may also fetch it over HTTP.
 */
async function readResult(deps: AppDeps, userId: string, uri: string): Promise<ReadResourceResult | null> {
  const prefix = `${deps.config.publicUrl}/api/v1/runs/`;
  const runId =
    uri.startsWith(prefix) && uri.endsWith('/result') ? uri.slice(prefix.length, -'/result'.length) : '';
  if (!ZUuid.safeParse(runId).success) return null;
  const file = await resultFileFor(deps, { id: userId, isAdmin: false }, runId);
  const mimeType = file.contentType;
  return {
    contents: [
      TEXT_TYPES.test(mimeType)
        ? // Decoded as a browser decodes it: a byte-order mark (spreadsheets want one in a CSV) is not text.
          { uri, mimeType, text: new TextDecoder().decode(file.bytes) }
        : { uri, mimeType, blob: file.bytes.toString('base64') },
    ],
  };
}

/** The HTTP request an MCP server answers: its id (what a person quotes) and its log. */
export interface McpRequestContext {
  requestId: string;
  log: FastifyBaseLogger;
}

/**
 * The MCP server for one request (stateless: every POST /mcp builds its own), acting for the key's owner.
 * Workflow tools start, charge and dispatch a run through the same code as POST /api/v1/runs, then wait for
 * it, relaying the workflow's progress messages as progress notifications when the client asked for them.
 *
 * What reaches the agent is written for it, never internal text: a refusal is the tool's answer in the key
 * owner's language, and an unexpected failure is logged here and answered with a generic text carrying the
 * request id (a protocol error's message would otherwise carry a database error, SQL and ids included).
 */
export function buildMcpServer(
  deps: AppDeps,
  principal: ApiPrincipal,
  stop: AbortSignal,
  context: McpRequestContext,
): Server {
  const lng = principal.user.language;
  const t = TEXTS[lng];
  const unexpected = (err: unknown, what: string) => {
    context.log.error({ err }, `mcp: ${what} failed`);
    return t.unexpected(context.requestId);
  };
  const server = new Server(
    { name: 'flujo', version: '1.0.0' },
    {
      // The tool list follows the catalogue: streams opened with GET /mcp are told when it changes.
      capabilities: { tools: { listChanged: true }, resources: {} },
      instructions:
        'Run Flujo workflows with your credits. Each workflow tool charges its price when called. Chat workflows ' +
        'are talked through with start_conversation and send_message (charged once, at the first message).',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      return { tools: await listTools() };
    } catch (err) {
      throw new McpError(ErrorCode.InternalError, unexpected(err, 'tools/list'));
    }
  });

  // Results are reached through the links tools answer; the list does not enumerate every run of the account.
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    let read: ReadResourceResult | null;
    try {
      read = await readResult(deps, principal.user.id, request.params.uri);
    } catch (err) {
      // Not found or not the caller's: the same answer, in the caller's language.
      if (err instanceof AppError) throw new McpError(RESOURCE_NOT_FOUND, err.messageIn(lng));
      throw new McpError(ErrorCode.InternalError, unexpected(err, 'resources/read'));
    }
    if (!read) throw new McpError(RESOURCE_NOT_FOUND, t.unknownResource);
    return read;
  });

  /**
   * What an agent weighs before calling a workflow: its price, and what the catalogue shows of its health
   * (decision 145: its 30-day success rate and typical duration, once it has enough finished runs).
   */
  const describe = (row: ApiWorkflowRow, health: TPublicHealth): string => {
    const shown = toApiWorkflow(row, lng);
    const told = health
      ? t.health(
          health.successPercent,
          health.typicalMs === null
            ? null
            : formatRoughDuration(health.typicalMs, lng === 'es' ? 'es-ES' : 'en-US'),
        )
      : t.noHealth;
    return [shown.description, t.price(shown.creditsPerExecution), told].filter(Boolean).join(' ');
  };

  const listTools = async (): Promise<Tool[]> => {
    const tooled = [...workflowTools(await apiWorkflowRows(deps.db))];
    const health = await monthlyHealthOf(
      deps.db,
      tooled.map(([, row]) => row.id),
      deps.now(),
    );
    const tools: Tool[] = tooled.map(([name, row]) => {
      const shown = toApiWorkflow(row, lng);
      return {
        name,
        title: shown.name,
        description: describe(row, publicHealth(health.get(row.id))),
        inputSchema: shown.inputSchema as Tool['inputSchema'],
      };
    });
    tools.push(
      { name: 'list_workflows', description: t.list, inputSchema: { type: 'object', properties: {} } },
      { name: 'get_balance', description: t.balance, inputSchema: { type: 'object', properties: {} } },
      {
        name: 'list_saved_inputs',
        description: t.savedList,
        inputSchema: { type: 'object', properties: {} },
      },
      {
        name: 'run_saved_input',
        description: t.savedRun,
        inputSchema: {
          type: 'object',
          properties: { savedInputId: { type: 'string', format: 'uuid', description: t.savedInputId } },
          required: ['savedInputId'],
        },
      },
      {
        name: 'start_conversation',
        description: t.startChat,
        inputSchema: {
          type: 'object',
          properties: { workflowId: { type: 'string', format: 'uuid', description: t.chatWorkflowId } },
          required: ['workflowId'],
        },
      },
      {
        name: 'send_message',
        description: t.sendMessage,
        inputSchema: {
          type: 'object',
          properties: {
            conversationId: { type: 'string', format: 'uuid', description: t.conversationId },
            text: { type: 'string', minLength: 1, description: t.messageText },
          },
          required: ['conversationId', 'text'],
        },
      },
      {
        name: 'get_run',
        description: t.run,
        inputSchema: {
          type: 'object',
          properties: { runId: { type: 'string', format: 'uuid', description: t.runId } },
          required: ['runId'],
        },
      },
    );
    return tools;
  };

  /**
   * The run once it ended, or as it stands after MCP_RUN_WAIT_MS, relaying the workflow's progress messages
   * as progress notifications when the client asked for them.
   */
  const untilEnded = async (started: TApiRun, extra: ToolExtra): Promise<TApiRun> => {
    const progressToken = extra._meta?.progressToken;
    // Watched from the start's answer on, then read once more in case it changed in between; after that it
    // is read only when it changes (run-events.ts).
    const watch = runEventsOf(deps.database).watch(started.id);
    let run = isOpen(started.status) ? await getApiRun(deps, principal.user.id, started.id) : started;
    let step = 0;
    let lastMessage: string | null = null;
    const deadline = Date.now() + MCP_RUN_WAIT_MS;
    try {
      while (isOpen(run.status) && Date.now() < deadline && !stop.aborted && !extra.signal.aborted) {
        if (progressToken !== undefined && run.progressMessage && run.progressMessage !== lastMessage) {
          lastMessage = run.progressMessage;
          step += 1;
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, message: run.progressMessage },
          });
        }
        if (await watch.changed(deadline - Date.now(), stop, extra.signal)) {
          run = await getApiRun(deps, principal.user.id, run.id);
        }
      }
    } finally {
      watch.close();
    }
    return run;
  };

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    try {
      switch (request.params.name) {
        case 'list_workflows':
          return json((await apiWorkflowRows(deps.db)).map((r) => toApiWorkflow(r, lng)));
        case 'get_balance':
          return json({
            balance: principal.user.credits,
            spentThisMonth: principal.spentThisMonth,
            monthlyCreditLimit: principal.monthlyCreditLimit,
          });
        case 'list_saved_inputs':
          return json((await listSavedInputs(deps, principal.user.id, lng)).savedInputs);
        case 'get_run': {
          const runId = ZUuid.safeParse(args.runId);
          if (!runId.success) return toolError(t.badRunId);
          const run = await getApiRun(deps, principal.user.id, runId.data);
          return runContent(deps, principal.user.id, run, lng);
        }
        case 'start_conversation': {
          const workflowId = ZUuid.safeParse(args.workflowId);
          if (!workflowId.success) return toolError(t.badChatWorkflowId);
          const row = (await apiWorkflowRows(deps.db)).find((r) => r.id === workflowId.data);
          if (!row) throw new AppError('NOT_FOUND', 'workflow');
          if (row.interactionType !== 'chatbot') return toolError(t.notAChat);
          // The public API's start: checked (balance, the key's limit) but charged at the first message.
          const started = await startApiRun(
            deps,
            { principal },
            { workflowId: row.id, wait: 0, lang: lng },
            undefined,
            { stop, origin: 'mcp' },
          );
          if (!started) throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
          const { run } = started;
          return {
            content: [{ type: 'text', text: run.welcomeMessage ?? '' }],
            structuredContent: {
              conversationId: run.id,
              welcomeMessage: run.welcomeMessage ?? null,
              creditsUsed: run.creditsUsed,
            },
          };
        }
        case 'send_message': {
          const input = ZSendMessage.safeParse(args);
          if (!input.success) return toolError(t.badConversationId);
          // The public API's messages call: the first message charges the run (under the key's limit), each
          // counts against the run's allowance, and when the reply ends the conversation the run is submitted
          // with the transcript the server kept.
          const { pending, finish } = await acceptApiChatMessage(
            deps,
            principal,
            input.data.conversationId,
            { content: input.data.text, lang: lng },
            stop,
          );
          const reply = await finish(await pending.complete());
          const said: CallToolResult = {
            content: [{ type: 'text', text: reply.content }],
            structuredContent: {
              conversationId: reply.run.id,
              done: reply.done,
              remaining: reply.remaining,
            },
          };
          if (!reply.done) return said;
          const ended = await untilEnded(reply.run, extra);
          const result = await runContent(deps, principal.user.id, ended, lng);
          return {
            ...result,
            content: [...said.content, ...result.content],
            structuredContent: { ...said.structuredContent, ...result.structuredContent },
          };
        }
      }
      // The call waits for its run anyway, so its delivery is awaited before the progress loop begins.
      let outcome: ApiRunOutcome | null;
      if (request.params.name === 'run_saved_input') {
        const id = ZUuid.safeParse(args.savedInputId);
        if (!id.success) return toolError(t.badSavedInputId);
        outcome = await startSavedInputApiRun(deps, principal, id.data, { wait: 0 }, undefined, {
          stop,
          origin: 'mcp',
        });
      } else {
        const row = workflowTools(await apiWorkflowRows(deps.db)).get(request.params.name);
        if (!row) return toolError(t.unknownTool(request.params.name));
        outcome = await startApiRun(
          deps,
          { principal },
          { workflowId: row.id, answers: args, wait: 0, lang: lng },
          undefined,
          { stop, origin: 'mcp' },
        );
      }
      if (!outcome) throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
      return runContent(deps, principal.user.id, await untilEnded(outcome.run, extra), lng);
    } catch (err) {
      // Refusals (credits, the key's limit, bad answers, an unknown run) are the tool's answer, not a
      // protocol error, so the agent can read them and act.
      if (err instanceof AppError) return toolError(`${err.code}: ${err.messageIn(lng)}`);
      return toolError(unexpected(err, `tools/call ${request.params.name}`));
    }
  });
  return server;
}
