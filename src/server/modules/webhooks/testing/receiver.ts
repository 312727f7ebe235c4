import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A customer's webhook receiver on loopback: records what arrives, answers with `status` (200 by default). */
export interface Receiver {
  url: string;
  received: Received[];
  status: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver = { received: [] as Received[], status: 200 } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      receiver.received.push({ headers, body, json: JSON.parse(body) as Received['json'] });
      res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('x'.repeat(5000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

/**
 * Verifies a delivery with the `standardwebhooks` library as a receiver would, its clock at `at` (the
 * library refuses timestamps more than 5 minutes from its own now; the app's clock is the injected one).
 * Answers the parsed payload, or throws as the library does.
 */
export function verifyAt(at: Date, secret: string, message: Received): unknown {
  vi.useFakeTimers({ now: at, toFake: ['Date'] });
  try {
    return new Webhook(secret).verify(message.body, message.headers);
  } finally {
    vi.useRealTimers();
  }
}
