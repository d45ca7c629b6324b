// The suite used as intended: against this repository's adapter, on every `npm test`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTER_BIN, nodeCommand, runSuiteBin } from './_run.js';

describe('xprotocol-conformance against apps/adapter', () => {
  it('passes all eleven checks, both delegated-identity checks and the prompts-resources check, proves the twelve MUSTs, and writes JSON and JUnit reports', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'xp-conf-junit-')), 'report.xml');
    const { code, stdout, stderr } = await runSuiteBin([
      '--adapter-command',
      nodeCommand(ADAPTER_BIN),
      '--json',
      '--junit',
      junit,
    ]);
    const report = JSON.parse(stdout) as {
      passed: boolean;
      durationMs: number;
      checks: { name: string; status: string; failures: unknown[]; must: number[]; evidence: string[] }[];
      musts: { number: number; status: string }[];
      optional: { behaviour: string; status: string }[];
    };
    const failed = report.checks.filter((c) => c.status !== 'pass');
    expect(failed, `failed checks (stderr: ${stderr})`).toEqual([]);
    expect(code).toBe(0);
    expect(report.passed).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([
      'deterministic',
      'semantic',
      'quality-score',
      'describe',
      'low-quality-flag',
      'capability',
      'errors',
      'signatures',
      'trust-disclosure',
      'bidirectional',
      'gbnf',
      'delegation-chain',
      'delegated-callers',
      'prompts-resources',
    ]);
    expect(report.musts.map((m) => m.status)).toEqual(Array(12).fill('proven'));
    // Every check names the mandatory behaviours it helps prove and what its verdict rests on;
    // together they cover all twelve.
    for (const check of report.checks) {
      expect(check.evidence.length, `${check.name}: evidence`).toBeGreaterThan(0);
    }
    expect([...new Set(report.checks.flatMap((c) => c.must))].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(report.optional).toHaveLength(5);
    expect(report.optional.find((o) => o.behaviour === 'Delegated identity')?.status).toBe('present');
    expect(report.optional.find((o) => o.behaviour === 'MCP resources and prompts translation')?.status).toBe(
      'present',
    );
    const prompts = report.checks.find((c) => c.name === 'prompts-resources');
    expect(prompts?.evidence.join('\n')).toContain('conf.test.resource.note read notes://');
    expect(report.durationMs).toBeGreaterThan(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="xprotocol-conformance" tests="14" failures="0" skipped="0"');
  });

  it('--only runs one check; --list names all seventeen of both profiles; an unknown name is a usage error', async () => {
    const only = await runSuiteBin([
      '--adapter-command',
      nodeCommand(ADAPTER_BIN),
      '--only',
      'trust-disclosure',
    ]);
    expect(only.code).toBe(0);
    expect(only.stdout).toMatch(/✓ {2}9\. trust-disclosure/);
    expect(only.stdout).toMatch(/CONFORMANT: 1\/1 checks passed .* in \d+\.\d s/);
    const list = await runSuiteBin(['--list']);
    const lines = list.stdout.trim().split('\n');
    expect(lines).toHaveLength(17);
    expect(lines.filter((l) => l.endsWith('[native]')).map((l) => l.split(/\s+/)[1])).toEqual([
      'native-announce',
      'native-call',
      'native-refusals',
    ]);
    const bad = await runSuiteBin(['--adapter-command', 'x', '--only', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--only nope: expected one of deterministic');
  });

  it('--print-config prints a configuration the adapter validates', async () => {
    const keys = mkdtempSync(join(tmpdir(), 'xp-conf-keys-'));
    const printed = await runSuiteBin(['--print-config', '--keys', keys]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('ws://127.0.0.1:18765');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(keys, 'adapter.yml'), printed.stdout);
    const { spawnSync } = await import('node:child_process');
    const validate = spawnSync(
      process.execPath,
      [ADAPTER_BIN, 'validate', '--config', join(keys, 'adapter.yml')],
      {
        encoding: 'utf8',
      },
    );
    expect(validate.stderr).toContain('valid (2 mcp_sources, 1 xprotocol_sources)');
    expect(validate.status).toBe(0);
  });
});
