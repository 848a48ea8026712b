/**
 * The service's own metrics, in the Prometheus text format through prom-client (the
 * library Prometheus' Node.js users share: exposition format, label escaping and histogram
 * buckets are its job, not ours). One {@link Metrics} per process, or per app in tests:
 * each has its own registry, so apps built side by side never collide on metric names.
 */
import {
  type CollectFunction,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type Metric,
  Registry,
} from 'prom-client';
import type { Mode } from '../storage/sql/accounts.ts';
import type { GenerationMeter } from './meter.ts';
import { RouteHistogram } from './route-histogram.ts';

/** One queue's backlog, read when the metrics are scraped. */
export interface QueueStats {
  queue: string;
  /** Jobs that could run now and wait for a worker. */
  ready: number;
  /** Jobs scheduled for later (a retry's back-off). */
  deferred: number;
  /** Jobs a worker runs now. */
  active: number;
  /** Seconds the oldest ready job has waited since it was created; 0 when none waits. */
  oldestReadyAgeSeconds: number;
}

/** Reads every queue's backlog (the server's: pg-boss tables on the same database). */
export type QueueProbe = () => Promise<readonly QueueStats[]>;

export interface MetricsOptions {
  /** Also export Node.js process metrics (CPU, memory, event loop lag): once per process. */
  processMetrics?: boolean;
  /** Reads the queues at scrape time; none means no queue metrics. */
  queues?: QueueProbe;
}

/** Seconds: a status read takes about a millisecond, a long-poll up to a minute. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30, 60];
/** Seconds: the offline engine writes a document in milliseconds, a model in tens of seconds. */
const GENERATION_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

/**
 * The metrics of one process (or one test app) and the registry that exports them.
 *
 * @example
 * const metrics = new Metrics({ processMetrics: true, queues: () => readQueueStats(db) });
 * const text = await metrics.text(); // Prometheus text format
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #http: RouteHistogram;
  readonly #generation: Histogram<'kind' | 'engine'>;
  readonly #tokens: Counter<'provider' | 'model' | 'direction'>;
  readonly #credits: Record<'reserved' | 'consumed' | 'refunded', Counter<'mode'>>;
  readonly #streams: Gauge;
  readonly #longPolls: Gauge;

  /** What the generation layer is given (it never sees prom-client). */
  readonly generation: GenerationMeter;

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.#http = new RouteHistogram(
      'pgs_http_request_duration_seconds',
      'HTTP requests by method, route pattern and status, and how long they took (_count is the number of requests).',
      HTTP_BUCKETS,
    );
    // The registry only reads get() (name, help, type, values), which RouteHistogram has.
    this.registry.registerMetric(this.#http as unknown as Metric);
    this.#generation = new Histogram({
      name: 'pgs_generation_duration_seconds',
      help: 'Time to write one document (or the definition), by document kind and engine.',
      labelNames: ['kind', 'engine'],
      buckets: GENERATION_BUCKETS,
      registers,
    });
    this.#tokens = new Counter({
      name: 'pgs_model_tokens_total',
      help: 'Tokens the AI providers reported, by provider, model and direction: input (all input, cached included), cache_read and cache_write (the parts of input the prompt cache served or stored), output.',
      labelNames: ['provider', 'model', 'direction'],
      registers,
    });
    const credits = (movement: string, help: string) =>
      new Counter({
        name: `pgs_credits_${movement}_total`,
        help,
        labelNames: ['mode'],
        registers,
      });
    this.#credits = {
      reserved: credits('reserved', 'Credits reserved when projects were created, by key mode.'),
      consumed: credits('consumed', 'Credits charged for generated documents, by key mode.'),
      refunded: credits(
        'refunded',
        'Credits given back: the unused part of a reservation and failed projects, by key mode.',
      ),
    };
    this.#streams = new Gauge({
      name: 'pgs_event_streams_open',
      help: 'Event-stream requests (GET /api/v1/projects/{projectId}/events) open now.',
      registers,
    });
    this.#longPolls = new Gauge({
      name: 'pgs_long_polls_open',
      help: 'Status requests with Prefer: wait (long-polls) open now.',
      registers,
    });
    if (options.queues !== undefined) this.#queueGauges(options.queues);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });

    const generation = this.#generation;
    const tokens = this.#tokens;
    const creditCounters = this.#credits;
    this.generation = {
      documentGenerated(kind, engine, seconds) {
        generation.labels(kind, engine).observe(seconds);
      },
      tokensUsed(provider, engine, counts) {
        // The model as configured, without its provider (`offline` stays `offline`).
        const model = engine.startsWith(`${provider}:`)
          ? engine.slice(provider.length + 1)
          : engine;
        const directions = [
          ['input', counts.input],
          ['cache_read', counts.cacheRead],
          ['cache_write', counts.cacheWrite],
          ['output', counts.output],
        ] as const;
        for (const [direction, n] of directions) {
          if (n > 0) tokens.labels(provider, model, direction).inc(n);
        }
      },
      credits(mode: Mode, movement, amount) {
        if (amount > 0) creditCounters[movement].labels(mode).inc(amount);
      },
    };
  }

  /** Records one HTTP request; `route` is the route pattern, never the raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.#http.observe(method, route, status, seconds);
  }

  /** An event stream opened; call the returned function once when it closes. */
  streamOpened(): () => void {
    return this.#track(this.#streams);
  }

  /** A long-poll started; call the returned function once when it is answered or dropped. */
  longPollStarted(): () => void {
    return this.#track(this.#longPolls);
  }

  /** The metrics in the Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The `Content-Type` of {@link text}. */
  get contentType(): string {
    return this.registry.contentType;
  }

  #track(gauge: Gauge): () => void {
    gauge.inc();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      gauge.dec();
    };
  }

  #queueGauges(probe: QueueProbe): void {
    // One read of the queues per scrape, shared by the gauges that report it.
    let pending: Promise<readonly QueueStats[]> | undefined;
    const read = () => {
      pending ??= probe().finally(() => {
        pending = undefined;
      });
      return pending;
    };
    const gauge = (
      name: string,
      help: string,
      labelNames: string[],
      fill: (g: Gauge, stats: QueueStats) => void,
    ) => {
      const collect: CollectFunction<Gauge> = async function (this: Gauge) {
        this.reset();
        for (const stats of await read()) fill(this, stats);
      };
      return new Gauge({ name, help, labelNames, registers: [this.registry], collect });
    };
    gauge(
      'pgs_queue_jobs',
      'Jobs in each queue by state: ready (waiting for a worker), deferred (retry back-off), active.',
      ['queue', 'state'],
      (g, s) => {
        g.labels(s.queue, 'ready').set(s.ready);
        g.labels(s.queue, 'deferred').set(s.deferred);
        g.labels(s.queue, 'active').set(s.active);
      },
    );
    gauge(
      'pgs_queue_oldest_job_age_seconds',
      'Seconds the oldest ready job of each queue has waited (0 when none waits).',
      ['queue'],
      (g, s) => g.labels(s.queue).set(s.oldestReadyAgeSeconds),
    );
  }
}
