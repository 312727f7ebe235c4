import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../types.js';

/**
 * Background work that must survive restarts keeps its state in the database (due rows claimed with
 * FOR UPDATE SKIP LOCKED), so a job here is just "look for due work now"; it is safe to run on every
 * instance at once and after any crash. Tests call `run` directly with an injected clock.
 */
export interface Job {
  name: string;
  intervalMs: number;
  run(deps: AppDeps): Promise<unknown>;
}

export function startJobs(deps: AppDeps, jobs: Job[], log: FastifyBaseLogger): () => Promise<void> {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  for (const job of jobs) {
    deps.metrics.jobScheduled(job.name, job.intervalMs);
    const tick = () => {
      if (stopped) return;
      const started = performance.now();
      const p = job
        .run(deps)
        .then(
          () => deps.metrics.jobFinished(job.name, true, (performance.now() - started) / 1000),
          (err: unknown) => {
            deps.metrics.jobFinished(job.name, false, (performance.now() - started) / 1000);
            log.error({ err, job: job.name }, 'background job failed');
          },
        )
        .finally(() => {
          running.delete(p);
          if (!stopped) timers.push(setTimeout(tick, job.intervalMs).unref());
        });
      running.add(p);
    };
    timers.push(setTimeout(tick, Math.min(1000, job.intervalMs)).unref());
  }
  return async () => {
    stopped = true;
    timers.forEach(clearTimeout);
    await Promise.allSettled([...running]);
  };
}
