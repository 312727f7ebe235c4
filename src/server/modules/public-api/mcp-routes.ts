import { z } from 'zod';
import { ZErrorBody } from '#shared/contract/errors.js';
import { Closing } from '#server/lib/closing.js';
import { hijackReply } from '#server/lib/hijack.js';
import { AppError } from '#server/lib/errors.js';
import { refuseApiKey, requireApiKey } from '#server/plugins/api-key.js';
import type { App, AppDeps } from '#server/types.js';
import { apiKeyIsLive } from '../apikeys/service.js';
import { accessEndedOf } from '../executions/service.js';
import { MCP_STREAMS_PER_KEY, McpStreams } from './mcp-streams.js';

/**
 * The MCP server's code and the SDK's transport, loaded by the first request to /mcp rather than with the server:
 * they are about a tenth of a server start's CPU, and most starts never answer an MCP client (decision 195). Node
 * keeps a module once loaded, so later requests wait for nothing.
 */
async function mcpServerCode() {
  const [{ buildMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('./mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return { buildMcpServer, StreamableHTTPServerTransport };
}

/** JSON-RPC 2.0's code for a message that is not a valid request. */
const JSONRPC_INVALID_REQUEST = -32600;

/** A JSON-RPC error answer, as the MCP transport sends its own refusals. */
const ZJsonRpcError = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.null(),
    error: z.object({ code: z.number().int(), message: z.string() }),
  })
  .describe('A JSON-RPC error: a batch, or a message that is not valid JSON-RPC');

/**
 * The MCP server at /mcp over Streamable HTTP, stateless (every POST carries one JSON-RPC message and gets
 * its answer, a stream when the tool sends progress). A GET opens the standalone stream, which only carries
 * `notifications/tools/list_changed`. Bearer API key only, like /api/v1.
 */
export async function mcpRoutes(app: App, deps: AppDeps): Promise<void> {
  const closing = new Closing(app);
  const streams = new McpStreams(deps.database);
  app.addHook('preClose', async () => streams.closeAll());

  app.post(
    '/mcp',
    {
      schema: {
        tags: ['public API'],
        operationId: 'mcp',
        security: [{ apiKey: [] }],
        summary: 'Model Context Protocol (Streamable HTTP, stateless): workflows as tools',
        description:
          'One JSON-RPC message per request. A batch (a JSON array) is refused with 400 and the JSON-RPC ' +
          'error -32600: the MCP revisions served here have none, and the per-key limit counts requests. ' +
          'A Host or Origin the deployment does not serve is refused with 403 (DNS-rebinding protection).',
        body: z.unknown(),
        // A batch is refused as JSON-RPC says; a body that is not JSON at all never reached JSON-RPC, and is refused
        // with the usual error body.
        response: {
          400: z.union([ZJsonRpcError, ZErrorBody]),
          401: ZErrorBody,
          403: ZErrorBody,
          429: ZErrorBody,
        },
      },
    },
    async (request, reply) => {
      const principal = await requireApiKey(request, reply, deps);
      if (Array.isArray(request.body)) {
        // Refused before anything in it is read: one request would otherwise carry any number of calls past
        // the per-key limit, which counts requests.
        return reply.status(400).send({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: JSONRPC_INVALID_REQUEST,
            message: new AppError('VALIDATION_ERROR', 'mcpBatch').messageIn(principal.user.language),
          },
        });
      }
      const { buildMcpServer, StreamableHTTPServerTransport } = await mcpServerCode();
      const wait = closing.begin();
      const server = buildMcpServer(deps, principal, wait.signal, {
        requestId: request.id,
        log: request.log,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      hijackReply(reply);
      reply.raw.on('close', () => {
        wait.done();
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  app.get(
    '/mcp',
    {
      schema: {
        tags: ['public API'],
        operationId: 'mcpStream',
        summary: 'Model Context Protocol: the standalone event stream, told when the tool list changes',
        description:
          'Accept: text/event-stream. The stream carries `notifications/tools/list_changed` whenever the ' +
          `catalogue changes; the client then asks tools/list again. At most ${MCP_STREAMS_PER_KEY} open ` +
          'streams per API key (409 beyond).',
        response: { 401: ZErrorBody, 403: ZErrorBody, 409: ZErrorBody, 429: ZErrorBody },
      },
    },
    async (request, reply) => {
      const principal = await requireApiKey(request, reply, deps);
      if (streams.countFor(principal.keyId) >= MCP_STREAMS_PER_KEY) {
        throw new AppError('CONFLICT', { key: 'tooManyMcpStreams', params: { max: MCP_STREAMS_PER_KEY } });
      }
      const { buildMcpServer, StreamableHTTPServerTransport } = await mcpServerCode();
      const wait = closing.begin();
      const server = buildMcpServer(deps, principal, wait.signal, {
        requestId: request.id,
        log: request.log,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const stream = { keyId: principal.keyId, server, transport, closed: deps.metrics.streamOpened('/mcp') };
      streams.add(stream);
      // Revoked between the key's check and the watch that add began: refused as if it had been before. The
      // read waits for the watch's first LISTEN, as the run streams do: a revocation before it would go unheard.
      await accessEndedOf(deps.database).heard();
      if (!(await apiKeyIsLive(deps.db, principal.keyId))) {
        streams.remove(stream);
        wait.done();
        refuseApiKey(reply, deps);
      }
      hijackReply(reply);
      reply.raw.on('close', () => {
        wait.done();
        streams.remove(stream);
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw);
    },
  );

  // Stateless: there is no session to end.
  app.route({
    method: 'DELETE',
    url: '/mcp',
    schema: { hide: true },
    handler: async (_request, reply) =>
      reply
        .status(405)
        .header('allow', 'GET, POST')
        .send({ error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED', key: 'default' }),
  });
}
