import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook call the test service received. */
export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: {
    workflow_id: string;
    execution_id: string;
    user_id: string;
    secret_token: string;
    responses: unknown;
    language: string;
    callback_url: string;
  };
}

export interface ServiceAnswer {
  status: number;
  body?: unknown;
  /** The answer's bytes as they are, for bodies JSON.stringify cannot make (a 100,000-deep array). */
  rawBody?: string;
  headers?: Record<string, string>;
}

type ServiceHandler = (call: ReceivedCall) => ServiceAnswer | Promise<ServiceAnswer>;

/**
 * A workflow service on a loopback port, as a workflow builder would run it: it receives the signed
 * webhook and answers what the test says. Tests post callbacks to the app themselves.
 */
export interface WorkflowService {
  url: string;
  calls: ReceivedCall[];
  handle(handler: ServiceHandler): void;
  /** Resolves with the first call received for this run (at once if it already came). */
  callFor(executionId: string): Promise<ReceivedCall>;
  close(): Promise<void>;
}

export async function startWorkflowService(): Promise<WorkflowService> {
  let handler: ServiceHandler = () => ({ status: 202, body: { accepted: true } });
  const calls: ReceivedCall[] = [];
  const waiters: Array<{ executionId: string; resolve: (call: ReceivedCall) => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: ReceivedCall['body'];
        try {
          body = JSON.parse(rawBody) as ReceivedCall['body'];
        } catch {
          body = {} as ReceivedCall['body'];
        }
        const call: ReceivedCall = { path: req.url ?? '/', headers: req.headers, rawBody, body };
        calls.push(call);
        const answer = await handler(call);
        const text = answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(text);
        for (const waiter of waiters.filter((w) => w.executionId === body.execution_id)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(call);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    handle: (h) => {
      handler = h;
    },
    callFor: (executionId) => {
      const ready = calls.find((c) => c.body.execution_id === executionId);
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => waiters.push({ executionId, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nobody listens on now, for the app to listen on (so its callback URL is known before it starts). */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
