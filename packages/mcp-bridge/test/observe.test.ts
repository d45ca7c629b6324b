// observe/: the call series (bounded tool labels) and the audit log (one line per call, mode
// 0600, no argument values, rotation keeping N files).
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetricRegistry } from '@xprotocol/wire/admin';
import { describe, expect, it } from 'vitest';
import { AuditLog, argumentsHash, CallMetrics } from '../src/index.js';

describe('the call series', () => {
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
