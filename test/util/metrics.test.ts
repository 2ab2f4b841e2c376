// The exposition format of src/util/metrics.ts and the metrics listener's handler
// (docs/design/remote.md §1.12).
import { describe, expect, test } from 'bun:test';
import { Counter, Gauge, Histogram, METRICS_CONTENT_TYPE, MetricsRegistry } from '../../src/util/metrics.ts';
import { createMetricsHandler } from '../../src/util/metrics-handler.ts';

describe('MetricsRegistry.render()', () => {
  test('renders counters, gauges and cumulative histogram buckets in the text exposition format', () => {
    const registry = new MetricsRegistry();
    const counter = registry.register(new Counter('x_requests_total', 'Requests.', { name: 'outcome', values: ['ok', 'busy'] }));
    const plain = registry.register(new Counter('x_refusals_total', 'Refusals.'));
    registry.register(new Gauge('x_in_flight', 'In flight.', () => 3, { version: '1.0.0', commit: 'a"b' }));
    const histogram = registry.register(new Histogram('x_seconds', 'Durations.', [0.1, 1]));
    counter.inc('ok');
    counter.inc('ok');
    counter.inc('busy');
    plain.inc();
    histogram.observe(0.05);
    histogram.observe(0.5);
    histogram.observe(5);
    expect(registry.render()).toBe(
      [
        '# HELP x_requests_total Requests.',
        '# TYPE x_requests_total counter',
        'x_requests_total{outcome="ok"} 2',
        'x_requests_total{outcome="busy"} 1',
        '# HELP x_refusals_total Refusals.',
        '# TYPE x_refusals_total counter',
        'x_refusals_total 1',
        '# HELP x_in_flight In flight.',
        '# TYPE x_in_flight gauge',
        'x_in_flight{version="1.0.0",commit="a\\"b"} 3',
        '# HELP x_seconds Durations.',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.1"} 1',
        'x_seconds_bucket{le="1"} 2',
        'x_seconds_bucket{le="+Inf"} 3',
        'x_seconds_sum 5.55',
        'x_seconds_count 3',
        '',
      ].join('\n'),
    );
  });

  test('Counter.inc() refuses a label value outside the fixed set (a query can never become a label)', () => {
    const counter = new Counter('x_total', 'X.', { name: 'outcome', values: ['ok'] });
    expect(() => counter.inc('canary-query-5d1e83')).toThrow(RangeError);
    expect(counter.render()).not.toContain('canary');
  });
});

describe('createMetricsHandler()', () => {
  const handler = createMetricsHandler(new MetricsRegistry().register(new Counter('x_total', 'X.')) && new MetricsRegistry());
  const get = (path: string, init: RequestInit = {}, host: string | null = '127.0.0.1:9100'): Promise<Response> =>
    handler(new Request(`http://127.0.0.1:9100${path}`, { ...init, headers: host === null ? {} : { host } }));

  test('answers GET /metrics with the exposition content type', async () => {
    const response = await get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(METRICS_CONTENT_TYPE);
  });

  test('refuses another path (404), another method (405) and a missing Host (400)', async () => {
    expect((await get('/')).status).toBe(404);
    const post = await get('/metrics', { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await get('/metrics', {}, null)).status).toBe(400);
  });
});
