/**
 * Work a route began before answering and does not wait for: a public API run's first delivery to its
 * workflow. At most `limit` pieces at a time, so that a flood of starts waits for its own deliveries (the
 * answer comes after the delivery, as with `wait`) instead of piling up sockets and leases; all of them are
 * awaited when the server closes, before the database does (each delivery attempt ends within its timeout).
 */
export class WorkAfterAnswer {
  readonly #pending = new Set<Promise<void>>();

  constructor(
    private readonly limit: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Takes the work (true), or refuses it when `limit` pieces are under way (false: the caller awaits it). */
  readonly take = (work: Promise<unknown>): boolean => {
    if (this.#pending.size >= this.limit) return false;
    const tracked: Promise<void> = work.then(
      () => undefined,
      (err: unknown) => this.onError(err),
    );
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
    return true;
  };

  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
