import { hostname } from 'node:os';
import pino, { type DestinationStream } from 'pino';
import type { App } from '../types.js';

/** How long a request line may wait to be written with the lines that follow it. */
const BATCH_MS = 20;
/** Pending lines are written at once beyond this many characters, whatever the wait. */
const BATCH_CHARS = 64 * 1024;

/**
 * Collects lines and hands them to the destination in one write every few milliseconds. pino's
 * asynchronous destination (sonic-boom) measures its whole pending buffer on every write and makes a
 * `write(2)` per turn of the event loop, which on a busy server cost more per request than the answer's own
 * bookkeeping; a batch pays that once for hundreds of requests. A line waits at most BATCH_MS; the app
 * flushes what is pending when it closes, and a killed process loses at most those milliseconds of lines.
 */
export class LineBatch {
  private pending = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly destination: DestinationStream) {}

  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= BATCH_CHARS) this.flush();
    else this.timer ??= setTimeout(this.flush, BATCH_MS);
  }

  /** Writes what is pending now. */
  readonly flush = (): void => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === '') return;
    const chunk = this.pending;
    this.pending = '';
    this.destination.write(chunk);
  };
}

/** pino's number for the info level, which request lines are written at. */
const INFO = 30;

export interface AccessLine {
  reqId: string;
  method: string;
  url: string;
  status: number;
  ms: number;
}

/**
 * One line per answered request, in pino's JSON format (the app log's, on the same destination): level,
 * time, pid, hostname, the request's fields, msg. The line is built here rather than by a pino logger: its
 * fields are fixed and hold no secret (no redaction needed, unlike the app log), and building it directly
 * costs a tenth of a generic logger call, which showed on the catalogue's hot path.
 */
export class AccessLog {
  private readonly batch: LineBatch;
  private readonly origin: string;

  private constructor(destination: DestinationStream) {
    this.batch = new LineBatch(destination);
    this.origin = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  }

  /** The request log, or null when the level leaves requests (level info) out. */
  static create(level: string, destination: DestinationStream): AccessLog | null {
    const value = pino.levels.values[level] ?? Number.POSITIVE_INFINITY;
    return value <= INFO ? new AccessLog(destination) : null;
  }

  write(line: AccessLine): void {
    this.batch.write(
      `{"level":${INFO},"time":${Date.now()},${this.origin},"reqId":${JSON.stringify(line.reqId)},` +
        `"method":${JSON.stringify(line.method)},"url":${JSON.stringify(line.url)},` +
        `"status":${line.status},"ms":${line.ms},"msg":"request"}\n`,
    );
  }

  flush(): void {
    this.batch.flush();
  }
}

/** Logs every answer Fastify gives; the hooks are callback-style, since they run on every request. */
export function registerAccessLog(app: App, log: AccessLog): void {
  app.addHook('onResponse', (request, reply, done) => {
    log.write({
      reqId: request.id,
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
    done();
  });
  app.addHook('onClose', (_app, done) => {
    log.flush();
    done();
  });
}
