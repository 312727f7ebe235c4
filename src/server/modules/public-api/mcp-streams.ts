import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Database } from '#server/db/client.js';
import { accessEndedOf } from '../executions/service.js';
import { watchCatalogue } from '../workflows/service.js';

/**
 * Open streams one API key may hold. An agent host opens one per connected client, so a few cover a person
 * with an editor and a desktop assistant on one key; more would let one key pin sockets and a server object
 * each without limit (the per-minute request limit counts a stream's opening, not its life).
 */
export const MCP_STREAMS_PER_KEY = 4;
/** How often the catalogue's version is read while streams are open (the embedded database also notifies). */
const MCP_CATALOGUE_POLL_MS = 2_000;

export interface McpStream {
  keyId: string;
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** Counts the stream as closed in the metrics. */
  closed: () => void;
}

interface OpenStream {
  /** Stops watching for the end of the stream's key. */
  unwatch: () => void;
}

/**
 * The standalone GET /mcp streams open in this process. Each is told `notifications/tools/list_changed` when
 * the catalogue changes; the catalogue is watched only while at least one stream is open. A stream ends when
 * its key is revoked (its owner's suspension and password reset revoke it too), on whichever instance.
 */
export class McpStreams {
  private readonly open = new Map<McpStream, OpenStream>();
  private stopWatching: (() => void) | null = null;

  constructor(
    private readonly database: Database,
    private readonly pollMs = MCP_CATALOGUE_POLL_MS,
  ) {}

  countFor(keyId: string): number {
    let n = 0;
    for (const stream of this.open.keys()) if (stream.keyId === keyId) n += 1;
    return n;
  }

  get size(): number {
    return this.open.size;
  }

  /** Synchronous with the caller's count check, so concurrent openings cannot pass the bound together. */
  add(stream: McpStream): void {
    const unwatch = accessEndedOf(this.database).watch(`key:${stream.keyId}`, () => this.remove(stream));
    this.open.set(stream, { unwatch });
    this.stopWatching ??= watchCatalogue(this.database, () => this.toolsChanged(), this.pollMs);
  }

  remove(stream: McpStream): void {
    const entry = this.open.get(stream);
    if (!entry || !this.open.delete(stream)) return;
    entry.unwatch();
    stream.closed();
    void stream.transport.close().catch(() => undefined);
    void stream.server.close().catch(() => undefined);
    if (this.open.size === 0) {
      this.stopWatching?.();
      this.stopWatching = null;
    }
  }

  private toolsChanged(): void {
    for (const stream of this.open.keys()) {
      // A stream that can no longer be written to is closing; its close handler removes it.
      void stream.server.sendToolListChanged().catch(() => undefined);
    }
  }

  /** Ends every stream: on shutdown, so open GETs do not hold the server's close. */
  closeAll(): void {
    for (const stream of [...this.open.keys()]) this.remove(stream);
  }
}
