import { type Metric, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RouteHistogram } from './route-histogram.ts';

describe('RouteHistogram', () => {
  it('exports cumulative buckets, sum and count per method, route and status, as prom-client does', async () => {
    const registry = new Registry();
    const histogram = new RouteHistogram('t_seconds', 'Test.', [0.1, 0.01, 1]);
    registry.registerMetric(histogram as unknown as Metric);
    for (const seconds of [0.005, 0.01, 0.05, 2]) histogram.observe('GET', '/a/:id', 200, seconds);
    histogram.observe('POST', '/a', 202, 0.5);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE t_seconds histogram');
    // Buckets sorted; a value equal to a bound counts in it; +Inf holds everything.
    expect(text).toContain(
      't_seconds_bucket{method="GET",route="/a/:id",status="200",le="0.01"} 2',
    );
    expect(text).toContain('t_seconds_bucket{method="GET",route="/a/:id",status="200",le="0.1"} 3');
    expect(text).toContain('t_seconds_bucket{method="GET",route="/a/:id",status="200",le="1"} 3');
    expect(text).toContain(
      't_seconds_bucket{method="GET",route="/a/:id",status="200",le="+Inf"} 4',
    );
    expect(text).toContain('t_seconds_count{method="GET",route="/a/:id",status="200"} 4');
    expect(text).toContain('t_seconds_sum{method="GET",route="/a/:id",status="200"} 2.065');
    expect(text).toContain('t_seconds_bucket{method="POST",route="/a",status="202",le="0.1"} 0');
    expect(text).toContain('t_seconds_count{method="POST",route="/a",status="202"} 1');
  });
});
