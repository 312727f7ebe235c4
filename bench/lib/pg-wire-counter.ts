import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that counts what its clients send: every round trip a client makes ends
 * with a Sync message (extended protocol: Parse/Bind/Execute, what node-postgres sends for a query with
 * parameters) or is one Query message (simple protocol: a bare `begin`, `commit`). Parse messages are counted
 * too: a statement prepared once per connection is parsed once, an unprepared one on every call.
 */
interface WireCounts {
  /** Sync + Query messages: round trips to the database. */
  roundTrips: number;
  /** Parse messages: statements the server had to parse (and plan) again. */
  parses: number;
}

export interface PgWireCounter {
  /** The connection URL to hand the server: the relay's port, the target's database and user. */
  url: string;
  counts(): WireCounts;
  close(): Promise<void>;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const PARSE = 0x50; // 'P'

export async function startPgWireCounter(targetUrl: string): Promise<PgWireCounter> {
  const target = new URL(targetUrl);
  const counts: WireCounts = { roundTrips: 0, parses: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    // The startup message (and an SSL request before it) has no type byte; every later one is type + length.
    let startup = true;
    let pending: Buffer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (pending.length < 4) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          // An SSLRequest (80877103) is followed by another startup message.
          startup = pending.readInt32BE(4) === 80877103;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1);
        if (pending.length < length + 1) break;
        const type = pending[0];
        if (type === SYNC || type === QUERY) counts.roundTrips += 1;
        if (type === PARSE) counts.parses += 1;
        pending = pending.subarray(length + 1);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the relay did not get a port');
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    counts: () => ({ ...counts }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
