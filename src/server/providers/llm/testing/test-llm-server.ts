import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test LLM server received: enough to check the request the provider sent. */
interface ReceivedLlmRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: {
    model?: string;
    temperature?: number;
    stream?: boolean;
    messages?: Array<{ role: string; content: string }>;
  };
}

type LlmReply =
  /** A whole reply; to a streamed request it is sent word by word (or in the given pieces). */
  | { kind: 'content'; content: string; pieces?: string[] }
  /**
   * A streamed reply under the test's control: `pieces` are sent one event each; after the first `holdAfter`
   * of them the server waits for `release`. Then it ends with `[DONE]`, or as `end` says: `drop` cuts the
   * connection, `error` sends an error event (as OpenAI does when a model fails while writing).
   */
  | {
      kind: 'stream';
      pieces: string[];
      holdAfter?: number;
      release?: Promise<void>;
      end?: 'done' | 'drop' | 'error';
    }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'raw'; status: number; text: string }
  | { kind: 'hang' };

export interface TestLlmServer {
  /** Base URL to use as LLM_BASE_URL, e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  received: ReceivedLlmRequest[];
  /** Sets what the next requests get; by default an echo of the last user message. */
  reply(next: LlmReply | ((request: ReceivedLlmRequest) => LlmReply)): void;
  /** The next requests get `pieces` streamed, held after the first until the returned function is called. */
  replyHeld(pieces: string[]): () => void;
  /** Streamed replies whose client went away before the reply was over. */
  readonly abandoned: number;
  /** Resolves when the next streamed reply is abandoned by its client. */
  nextAbandon(): Promise<void>;
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
  let abandoned = 0;
  let abandonWaiters: Array<() => void> = [];
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
      if (body.stream === true && (reply.kind === 'content' || reply.kind === 'stream')) {
        const pieces =
          reply.kind === 'stream' ? reply.pieces : (reply.pieces ?? reply.content.match(/\S+\s*|\s+/g) ?? []);
        const stream = reply.kind === 'stream' ? reply : undefined;
        let over = false;
        res.on('close', () => {
          if (over) return;
          abandoned += 1;
          for (const wake of abandonWaiters) wake();
          abandonWaiters = [];
        });
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
          `data: ${JSON.stringify({
            id: `chatcmpl-${received.length}`,
            object: 'chat.completion.chunk',
            model: body.model,
            choices: [{ index: 0, delta, finish_reason: finish }],
          })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(chunk({ role: 'assistant', content: '' }));
        for (const [i, piece] of pieces.entries()) {
          if (stream?.release && i === (stream.holdAfter ?? 0)) await stream.release;
          if (res.destroyed) return;
          res.write(chunk({ content: piece }));
        }
        if (stream?.release && pieces.length <= (stream.holdAfter ?? 0)) await stream.release;
        if (res.destroyed) return;
        const end = stream?.end ?? 'done';
        if (end === 'drop') {
          over = true;
          // What was written reaches the client first, as when a model's server dies in the middle of a reply.
          await new Promise<void>((resolve) => res.write('', () => resolve()));
          res.destroy();
          return;
        }
        if (end === 'error') {
          res.write(`data: ${JSON.stringify({ error: { message: 'model overloaded' } })}\n\n`);
        } else {
          res.write(chunk({}, 'stop'));
        }
        over = true;
        res.end('data: [DONE]\n\n');
        return;
      }
      if (reply.kind === 'stream') {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"not a streamed request"}');
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
    replyHeld(pieces) {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      responder = () => ({ kind: 'stream', pieces, holdAfter: 1, release: held });
      return release;
    },
    get abandoned() {
      return abandoned;
    },
    nextAbandon() {
      return new Promise<void>((resolve) => abandonWaiters.push(resolve));
    },
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
