// observe/: the Prometheus text format (escaping, cumulative buckets, bounded tool labels) and
// the audit log (one line per call, mode 0600, no argument values, rotation keeping N files).
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, argumentsHash, CallMetrics, MetricRegistry } from '../src/index.js';

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

  it('counts a call of an unknown tool under other', () => {
    const registry = new MetricRegistry();
    const metrics = new CallMetrics(registry, 'p');
    metrics.callEnded({ path: 'face', verdict: 'refused', reason: 'unknown_tool', latencyMs: 1 });
    const text = registry.render();
    expect(text).toContain('p_calls_total{path="face",source="other",tool="other",outcome="refused"} 1');
    expect(text).toContain('p_refusals_total{path="face",reason="unknown_tool"} 1');
  });
});

describe('the audit log', () => {
  it('writes one line per call with the hash of the arguments, not their values, in a 0600 file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.log');
    const log = new AuditLog({ path, maxBytes: 1024 * 1024, keep: 2 });
    log.callEnded({
      path: 'xprotocol',
      source: 's',
      tool: 't',
      arguments: { b: 1, a: 'secret' },
      verdict: 'ok',
      latencyMs: 2,
    });
    log.close();
    const line = JSON.parse(readFileSync(path, 'utf8').trim());
    expect(line.arguments_sha256).toBe(argumentsHash({ a: 'secret', b: 1 }));
    expect(readFileSync(path, 'utf8')).not.toContain('secret');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('rotates past max bytes and keeps only keep files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    const path = join(dir, 'audit.log');
    const log = new AuditLog({ path, maxBytes: 1024, keep: 2 });
    for (let i = 0; i < 60; i++) log.callEnded({ path: 'face', tool: `t${i}`, verdict: 'ok', latencyMs: 1 });
    log.close();
    expect(readdirSync(dir).sort()).toEqual(['audit.log', 'audit.log.1', 'audit.log.2']);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(1024);
    const newest = readFileSync(path, 'utf8').trim().split('\n');
    expect(JSON.parse(newest.at(-1)!).tool).toBe('t59');
  });
});
