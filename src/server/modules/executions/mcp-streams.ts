import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Database } from '#server/db/client.js';
import { watchCatalogue } from '../workflows/service.js';

/**
 * Open streams one API key may hold. An agent host opens one per connected client, so a few cover a person
 * with an editor and a desktop assistant on one key; more would let one key pin sockets and a server object
 * each without limit (the per-minute request limit counts a stream's opening, not its life).
 */
export const MCP_STREAMS_PER_KEY = 4;
/** How often the catalogue's version is read while streams are open (the embedded database also notifies). */
export const MCP_CATALOGUE_POLL_MS = 2_000;

export interface McpStream {
  keyId: string;
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** Counts the stream as closed in the metrics. */
  closed: () => void;
}

/**
 * The standalone GET /mcp streams open in this process. Each is told `notifications/tools/list_changed` when
 * the catalogue changes; the catalogue is watched only while at least one stream is open.
 */
export class McpStreams {
  private readonly open = new Set<McpStream>();
  private stopWatching: (() => void) | null = null;

  constructor(
    private readonly database: Database,
    private readonly pollMs = MCP_CATALOGUE_POLL_MS,
  ) {}

  countFor(keyId: string): number {
    let n = 0;
    for (const stream of this.open) if (stream.keyId === keyId) n += 1;
    return n;
  }

  get size(): number {
    return this.open.size;
  }

  /** Synchronous with the caller's count check, so concurrent openings cannot pass the bound together. */
  add(stream: McpStream): void {
    this.open.add(stream);
    this.stopWatching ??= watchCatalogue(this.database, () => this.toolsChanged(), this.pollMs);
  }

  remove(stream: McpStream): void {
    if (!this.open.delete(stream)) return;
    stream.closed();
    void stream.transport.close().catch(() => undefined);
    void stream.server.close().catch(() => undefined);
    if (this.open.size === 0) {
      this.stopWatching?.();
      this.stopWatching = null;
    }
  }

  private toolsChanged(): void {
    for (const stream of this.open) {
      // A stream that can no longer be written to is closing; its close handler removes it.
      void stream.server.sendToolListChanged().catch(() => undefined);
    }
  }

  /** Ends every stream: on shutdown, so open GETs do not hold the server's close. */
  closeAll(): void {
    for (const stream of [...this.open]) this.remove(stream);
  }
}
