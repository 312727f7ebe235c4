import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test LLM server received: enough to check the request the provider sent. */
export interface ReceivedLlmRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: {
    model?: string;
    temperature?: number;
    messages?: Array<{ role: string; content: string }>;
  };
}

export type LlmReply =
  | { kind: 'content'; content: string }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'raw'; status: number; text: string }
  | { kind: 'hang' };

export interface TestLlmServer {
  /** Base URL to use as LLM_BASE_URL, e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  received: ReceivedLlmRequest[];
  /** Sets what the next requests get; by default an echo of the last user message. */
  reply(next: LlmReply | ((request: ReceivedLlmRequest) => LlmReply)): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, for tests. */
export async function startTestLlmServer(): Promise<TestLlmServer> {
  const received: ReceivedLlmRequest[] = [];
  const hanging = new Set<() => void>();
  let responder: (request: ReceivedLlmRequest) => LlmReply = (request) => {
    const lastUser = [...(request.body.messages ?? [])].reverse().find((m) => m.role === 'user');
    return { kind: 'content', content: `echo: ${lastUser?.content ?? ''}` };
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body: ReceivedLlmRequest['body'] = {};
      try {
        body = JSON.parse(text) as ReceivedLlmRequest['body'];
      } catch {
        // Recorded as empty: the test's assertions on the body will say what went wrong.
      }
      const request: ReceivedLlmRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body,
      };
      received.push(request);
      const reply = responder(request);
      if (reply.kind === 'hang') {
        hanging.add(() => res.destroy());
        return;
      }
      if (reply.kind === 'raw') {
        res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.text);
        return;
      }
      const payload =
        reply.kind === 'content'
          ? {
              id: `chatcmpl-${received.length}`,
              object: 'chat.completion',
              model: body.model,
              choices: [
                { index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' },
              ],
            }
          : reply.body;
      res
        .writeHead(reply.kind === 'content' ? 200 : reply.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(payload));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    reply(next) {
      responder = typeof next === 'function' ? next : () => next;
    },
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
