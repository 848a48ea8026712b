/** A sample as prom-client's registry formats it. */
interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** One label set's buckets (not cumulative: each observation counts in one), sum and count. */
interface Series {
  readonly labels: Readonly<Record<'method' | 'route' | 'status', string>>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request-duration histogram, kept out of prom-client's way on the hot path: its
 * `observe` hashes the label values into a string on every call (measured about 1.2 µs on
 * these machines, a few percent of a status read). Here a request finds its series by
 * three map lookups (route, method, status) and adds to a typed array: no allocation.
 * The registry reads it like any prom-client metric (`get()`), in the same text format.
 *
 * @example
 * const h = new RouteHistogram('pgs_http_request_duration_seconds', 'HTTP requests', [0.01, 0.1, 1]);
 * registry.registerMetric(h as unknown as Metric); // the registry only calls get()
 * h.observe('GET', '/api/v1/projects/:projectId', 200, 0.002);
 */
export class RouteHistogram {
  readonly name: string;
  readonly help: string;
  readonly #buckets: readonly number[];
  readonly #series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(name: string, help: string, buckets: readonly number[]) {
    this.name = name;
    this.help = help;
    this.#buckets = [...buckets].sort((a, b) => a - b);
  }

  /** Records one request of `seconds`. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const series = this.#find(method, route, status);
    const buckets = this.#buckets;
    let i = 0;
    while (i < buckets.length && seconds > buckets[i]!) i++;
    // Index buckets.length is +Inf.
    series.counts[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** The histogram as prom-client's registry reads a metric. */
  async get(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    values: Sample[];
    aggregator: 'sum';
  }> {
    const values: Sample[] = [];
    for (const byMethod of this.#series.values()) {
      for (const byStatus of byMethod.values()) {
        for (const series of byStatus.values()) {
          let cumulative = 0;
          for (let i = 0; i <= this.#buckets.length; i++) {
            cumulative += series.counts[i]!;
            const le = i < this.#buckets.length ? this.#buckets[i]! : '+Inf';
            values.push({
              metricName: `${this.name}_bucket`,
              labels: { ...series.labels, le },
              value: cumulative,
            });
          }
          values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
          values.push({
            metricName: `${this.name}_count`,
            labels: series.labels,
            value: series.count,
          });
        }
      }
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' };
  }

  #find(method: string, route: string, status: number): Series {
    let byMethod = this.#series.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (series === undefined) {
      series = {
        labels: { method, route, status: String(status) },
        counts: new Float64Array(this.#buckets.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
    }
    return series;
  }
}
