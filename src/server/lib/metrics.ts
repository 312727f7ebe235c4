import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TLedgerNoteKind } from '#shared/contract/credits.js';

/** How a webhook delivery attempt ended, as the metrics tell it (a bounded set of label values). */
export type WebhookOutcome =
  /** A 2xx: the service took the run. */
  | 'success'
  /** A 4xx: the service refused the run (the run fails). */
  | 'rejected'
  /** A 3xx or 5xx: retried. */
  | 'error'
  /** No answer: connection refused, reset, timed out, or the name did not resolve. Retried. */
  | 'network_error'
  /** Never sent: the address is not allowed (a private address with private webhooks off). */
  | 'blocked';

const WEBHOOK_OUTCOMES: WebhookOutcome[] = ['success', 'rejected', 'error', 'network_error', 'blocked'];
const RUN_ENDINGS = ['completed', 'failed', 'expired'] as const;

/** From a fraction of a millisecond (a cached catalogue answer) to the 30 s a run's completion may wait. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Up to the 10 s a delivery attempt is given. */
const WEBHOOK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120];

interface JobState {
  intervalMs: number;
  /** When the job last finished without an error (or was scheduled, before its first pass). */
  lastSuccessAt: number;
}

/**
 * The metrics of one app instance, in a registry of its own (several apps can live in one process, as in
 * tests). Each counter is moved in the one place its fact happens; the gauges that describe state (database
 * pool, outbox, open streams) are read when the registry is scraped (`plugins/metrics.ts`). Every label has a
 * bounded set of values: route patterns, never raw URLs.
 */
export class Metrics {
  readonly registry = new Registry();

  /** Every answered request; its `_count` is the request count. */
  private readonly httpRequestDuration = new Histogram({
    name: 'flujo_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  private readonly runsStarted = new Counter({
    name: 'flujo_runs_started_total',
    help: 'Runs started (charged)',
    registers: [this.registry],
  });

  private readonly runsFinished = new Counter({
    name: 'flujo_runs_finished_total',
    help: 'Runs ended, by how they ended (completed, failed, expired)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  private readonly webhookDuration = new Histogram({
    name: 'flujo_webhook_delivery_duration_seconds',
    help: 'Webhook delivery attempts to workflow services, by outcome; its _count counts the attempts',
    labelNames: ['outcome'] as const,
    buckets: WEBHOOK_BUCKETS,
    registers: [this.registry],
  });

  private readonly creditsGranted = new Counter({
    name: 'flujo_credits_granted_total',
    help: 'Credits added to balances, by the ledger note kind (purchase, bonus, refund, adjustment...)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly creditsSpent = new Counter({
    name: 'flujo_credits_spent_total',
    help: 'Credits taken from balances, by the ledger note kind (runs, reversed payments, adjustments)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly jobRuns = new Counter({
    name: 'flujo_job_runs_total',
    help: 'Passes of each background job, by outcome (ok, error)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly jobDuration = new Histogram({
    name: 'flujo_job_duration_seconds',
    help: 'Time one pass of a background job took',
    labelNames: ['job'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  private readonly jobs = new Map<string, JobState>();

  private readonly jobLag = (() => {
    const jobs = this.jobs;
    return new Gauge({
      name: 'flujo_job_lag_seconds',
      help: 'How far each background job is behind its schedule: seconds since its last successful pass beyond its interval (0 when on time)',
      labelNames: ['job'] as const,
      registers: [this.registry],
      collect() {
        const now = Date.now();
        for (const [job, state] of jobs) {
          this.set({ job }, Math.max(0, now - state.lastSuccessAt - state.intervalMs) / 1000);
        }
      },
    });
  })();

  private readonly eventStreams = new Gauge({
    name: 'flujo_event_streams_open',
    help: 'Event streams open on this instance (run events, chat replies, MCP), by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Known label values start at zero, so a rate over them is defined from the first scrape.
    for (const status of RUN_ENDINGS) this.runsFinished.inc({ status }, 0);
    for (const outcome of WEBHOOK_OUTCOMES) this.webhookDuration.zero({ outcome });
  }

  /** An answered request; `route` is the route's pattern (never the raw URL). */
  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    this.httpRequestDuration.observe({ method, route, status }, seconds);
  }

  runStarted(): void {
    this.runsStarted.inc();
  }

  runFinished(status: (typeof RUN_ENDINGS)[number]): void {
    this.runsFinished.inc({ status });
  }

  webhookAttempted(outcome: WebhookOutcome, seconds: number): void {
    this.webhookDuration.observe({ outcome }, seconds);
  }

  /** A ledger movement: positive amounts are granted, negative ones spent. */
  creditsMoved(reason: TLedgerNoteKind, amount: number): void {
    if (amount > 0) this.creditsGranted.inc({ reason }, amount);
    else if (amount < 0) this.creditsSpent.inc({ reason }, -amount);
  }

  /** A job the scheduler runs every `intervalMs`; its lag counts from now until its first pass. */
  jobScheduled(job: string, intervalMs: number): void {
    this.jobs.set(job, { intervalMs, lastSuccessAt: Date.now() });
    this.jobRuns.inc({ job, outcome: 'ok' }, 0);
    this.jobRuns.inc({ job, outcome: 'error' }, 0);
  }

  jobFinished(job: string, ok: boolean, seconds: number): void {
    this.jobRuns.inc({ job, outcome: ok ? 'ok' : 'error' });
    this.jobDuration.observe({ job }, seconds);
    const state = this.jobs.get(job);
    if (ok && state) state.lastSuccessAt = Date.now();
  }

  /** Counts an event stream as open until the returned function is called (once is enough; more are ignored). */
  streamOpened(route: string): () => void {
    const gauge = this.eventStreams.labels({ route });
    gauge.inc();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      gauge.dec();
    };
  }
}
