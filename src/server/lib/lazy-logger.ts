import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger (`request.log`), made the first time the request logs something. Fastify makes a pino
 * child with the request's id for every request, and pino runs the app log's redaction over the child's
 * bindings as it makes it: about 3.5% of a catalogue answer's CPU, for a logger most requests never use (each
 * answered request's line is written by the access log, which has its id already).
 */
export class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): FastifyBaseLogger['level'] {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: FastifyBaseLogger['level']) {
    this.logger.level = level;
  }

  readonly fatal = this.forward('fatal');
  readonly error = this.forward('error');
  readonly warn = this.forward('warn');
  readonly info = this.forward('info');
  readonly debug = this.forward('debug');
  readonly trace = this.forward('trace');
  readonly silent = this.forward('silent');

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  /** pino's log methods are overloaded; a call is handed on with its arguments as they came. */
  private forward(method: LogMethod): FastifyBaseLogger[LogMethod] {
    return (...args: unknown[]) => {
      const logger = this.logger;
      Reflect.apply(logger[method], logger, args);
    };
  }
}
