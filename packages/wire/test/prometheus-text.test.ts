// The Prometheus text format of the admin entry: escaping, cumulative buckets, and counters read
// at each scrape from a count kept elsewhere.
import { describe, expect, it } from 'vitest';
import { MetricRegistry } from '../src/admin.js';

describe('the Prometheus text format', () => {
  it('escapes backslash, quote and newline in label values', () => {
    const registry = new MetricRegistry();
    registry.counter('t_total', 'help', ['v']);
    registry.inc('t_total', { v: 'a\\b"c\nd' });
    expect(registry.render()).toContain('t_total{v="a\\\\b\\"c\\nd"} 1');
  });

  it('renders cumulative buckets, +Inf, sum and count', () => {
    const registry = new MetricRegistry();
    registry.histogram('h_seconds', 'help', ['k'], [0.1, 1]);
    for (const value of [0.05, 0.5, 5]) registry.observe('h_seconds', { k: 'x' }, value);
    const text = registry.render();
    expect(text).toContain('h_seconds_bucket{k="x",le="0.1"} 1');
    expect(text).toContain('h_seconds_bucket{k="x",le="1"} 2');
    expect(text).toContain('h_seconds_bucket{k="x",le="+Inf"} 3');
    expect(text).toContain('h_seconds_count{k="x"} 3');
  });

  it('reads a counter at each scrape when it is given a reader', () => {
    const registry = new MetricRegistry();
    let count = 2;
    registry.counter('r_total', 'help', ['reason'], () => [[{ reason: 'x' }, count]]);
    expect(registry.render()).toContain('# TYPE r_total counter\nr_total{reason="x"} 2\n');
    count = 5;
    expect(registry.render()).toContain('r_total{reason="x"} 5');
  });
});
