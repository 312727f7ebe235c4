import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { TLanguage } from '#shared/contract/common.js';
import type { TApiRun } from '#shared/contract/public-api.js';
import { AppError } from '#server/lib/errors.js';
import type { AppDeps } from '#server/types.js';
import type { ApiPrincipal } from '../apikeys/service.js';
import { type ApiWorkflowRow, apiWorkflowRows, toApiWorkflow } from '../public-api/service.js';
import { resultFileFor } from '../results/service.js';
import { getApiRun, startApiRun } from './api-runs.js';
import { isOpen } from './queries.js';
import { runEventsOf } from './run-events.js';

/** How long a workflow tool waits for its run before answering with the run as it stands. */
export const MCP_RUN_WAIT_MS = 120_000;
const NAME_MAX = 64;

const TEXTS = {
  en: {
    price: (n: number) => `${n} credit${n === 1 ? '' : 's'} per run.`,
    list: 'Lists the public workflows you can run, with their price in credits.',
    balance: 'Your credit balance, what this API key spent this month and its monthly limit.',
    run: 'A run started earlier, by its id: its status and result.',
    runId: 'The run id a workflow tool returned',
    stillRunning: (id: string) => `The run ${id} is still working; ask get_run for it later.`,
    failed: (m: string) => `The run failed: ${m}`,
  },
  es: {
    price: (n: number) => `${n} crédito${n === 1 ? '' : 's'} por ejecución.`,
    list: 'Lista los workflows públicos que puedes ejecutar, con su precio en créditos.',
    balance: 'Tu saldo de créditos, lo que esta clave de API gastó este mes y su límite mensual.',
    run: 'Una ejecución iniciada antes, por su id: su estado y su resultado.',
    runId: 'El id de ejecución que devolvió una herramienta de flujo',
    stillRunning: (id: string) => `La ejecución ${id} sigue en marcha; pídela más tarde con get_run.`,
    failed: (m: string) => `La ejecución falló: ${m}`,
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
export function workflowTools(rows: ApiWorkflowRow[]): Map<string, ApiWorkflowRow> {
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
  if (run.result_url) {
    const file = await resultFileFor(deps, { id: userId, isAdmin: false }, run.id);
    if (run.outputType === 'image') {
      content.push({ type: 'image', data: file.bytes.toString('base64'), mimeType: file.contentType });
    } else {
      content.push({
        type: 'resource_link',
        uri: run.result_url,
        name: run.outputFilename ?? 'result',
        mimeType: file.contentType,
        description: 'Fetch with the same Authorization: Bearer key',
      });
    }
  } else if (run.outputUrl) {
    content.push({ type: 'resource_link', uri: run.outputUrl, name: run.outputFilename ?? 'result' });
  }
  if (content.length === 0) content.push({ type: 'text', text: run.status });
  return { content, structuredContent: { runId: run.id, status: run.status, creditsUsed: run.creditsUsed } };
}

/**
 * The MCP server for one request (stateless: every POST /mcp builds its own), acting for the key's owner.
 * Workflow tools start, charge and dispatch a run through the same code as POST /api/v1/runs, then wait for
 * it, relaying the workflow's progress messages as progress notifications when the client asked for them.
 */
export function buildMcpServer(deps: AppDeps, principal: ApiPrincipal, stop: AbortSignal): Server {
  const lng = principal.user.language;
  const t = TEXTS[lng];
  const server = new Server(
    { name: 'flujo', version: '1.0.0' },
    {
      // The tool list follows the catalogue: streams opened with GET /mcp are told when it changes.
      capabilities: { tools: { listChanged: true } },
      instructions:
        'Run Flujo workflows with your credits. Each workflow tool charges its price when called. Chat workflows ' +
        'are not offered here: they need a conversation.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools: Tool[] = [...workflowTools(await apiWorkflowRows(deps.db))].map(([name, row]) => {
      const shown = toApiWorkflow(row, lng);
      return {
        name,
        title: shown.name,
        description: [shown.description, t.price(shown.creditsPerExecution)].filter(Boolean).join(' '),
        inputSchema: shown.inputSchema as Tool['inputSchema'],
      };
    });
    tools.push(
      { name: 'list_workflows', description: t.list, inputSchema: { type: 'object', properties: {} } },
      { name: 'get_balance', description: t.balance, inputSchema: { type: 'object', properties: {} } },
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
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    try {
      switch (request.params.name) {
        case 'list_workflows':
          return json(
            (await apiWorkflowRows(deps.db))
              .filter((r) => r.interactionType === 'survey')
              .map((r) => toApiWorkflow(r, lng)),
          );
        case 'get_balance':
          return json({
            balance: principal.user.credits,
            spentThisMonth: principal.spentThisMonth,
            monthlyCreditLimit: principal.monthlyCreditLimit,
          });
        case 'get_run': {
          const runId = typeof args.runId === 'string' ? args.runId : '';
          const run = await getApiRun(deps, principal.user.id, runId);
          return runContent(deps, principal.user.id, run, lng);
        }
      }
      const row = workflowTools(await apiWorkflowRows(deps.db)).get(request.params.name);
      if (!row) return toolError(`Unknown tool: ${request.params.name}`);
      // The call waits for its run anyway, so its delivery is awaited before the progress loop begins.
      const outcome = await startApiRun(
        deps,
        { principal },
        { workflowId: row.id, answers: args, wait: 0, lang: lng },
        undefined,
        { stop },
      );
      if (!outcome) throw new AppError('UNAUTHENTICATED', 'apiKeyRequired');
      const started = outcome.run;
      const progressToken = request.params._meta?.progressToken;
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
      return runContent(deps, principal.user.id, run, lng);
    } catch (err) {
      // Refusals (credits, the key's limit, bad answers, an unknown run) are the tool's answer, not a
      // protocol error, so the agent can read them and act.
      if (err instanceof AppError) return toolError(`${err.code}: ${err.messageIn(lng)}`);
      throw err;
    }
  });
  return server;
}
