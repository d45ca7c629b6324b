// Every check can fail: each deliberately broken adapter (test/doubles/broken-adapter.mjs) breaks
// one rule, and the suite must fail exactly the matching checks and pass the others. An adapter
// without the optional delegated identity is reported absent there, and still conformant.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTER_BIN, nodeCommand, runSuiteBin } from './_run.js';

const DOUBLE = join(import.meta.dirname, 'doubles', 'broken-adapter.mjs');

// allow-all serves every key, so it also serves every chain, widened or revoked, and the prompt
// contract to a key without the grant.
const CASES = [
  { mode: 'allow-all', fails: ['capability', 'delegated-callers', 'prompts-resources'] },
  { mode: 'no-mcp-sources', fails: ['trust-disclosure'] },
  { mode: 'nondeterministic', fails: ['deterministic'] },
  { mode: 'bad-grammar', fails: ['gbnf'] },
  { mode: 'wrong-errors', fails: ['errors'] },
  { mode: 'skip-signatures', fails: ['signatures'] },
  { mode: 'foreign-chain', fails: ['delegation-chain'] },
  { mode: 'accept-any-chain', fails: ['delegated-callers'] },
  { mode: 'ignore-revocations', fails: ['delegated-callers'] },
  { mode: 'wrong-prompt', fails: ['prompts-resources'] },
] as const;

interface Report {
  passed: boolean;
  checks: {
    name: string;
    status: string;
    notes: string[];
    failures: { what: string; sent: string; received: string; expected: string }[];
  }[];
  optional: { behaviour: string; status: string }[];
}

describe.concurrent('a broken adapter fails its matching check and no other', () => {
  for (const { mode, fails } of CASES) {
    it(`${mode} → only ${fails.join(', ')} fail(s) (exit 1)`, async () => {
      const { code, stdout, stderr } = await runSuiteBin([
        '--adapter-command',
        `${nodeCommand(DOUBLE, mode)} ${nodeCommand(ADAPTER_BIN)}`,
        '--json',
      ]);
      expect(stdout, stderr).not.toBe('');
      const report = JSON.parse(stdout) as Report;
      const failed = report.checks.filter((c) => c.status === 'fail');
      expect(failed.map((c) => c.name)).toEqual(fails);
      expect(report.checks).toHaveLength(14);
      expect(code).toBe(1);
      expect(report.passed).toBe(false);
      // Every failure says what was sent, what came back and what was expected.
      for (const failure of failed.flatMap((c) => c.failures)) {
        expect(failure.sent.length * failure.received.length * failure.expected.length).toBeGreaterThan(0);
      }
    });
  }

  it('no-prompts → prompts-resources is absent, and the adapter is conformant (exit 0)', async () => {
    const { code, stdout, stderr } = await runSuiteBin([
      '--adapter-command',
      `${nodeCommand(DOUBLE, 'no-prompts')} ${nodeCommand(ADAPTER_BIN)}`,
      '--json',
    ]);
    expect(stdout, stderr).not.toBe('');
    const report = JSON.parse(stdout) as Report;
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => [c.name, c.status])).toEqual([
      ['prompts-resources', 'absent'],
    ]);
    expect(report.checks.find((c) => c.name === 'prompts-resources')?.notes.join('\n')).toContain(
      'the catalog has no conf.test.prompt.summarize_note',
    );
    expect(report.optional.find((o) => o.behaviour === 'MCP resources and prompts translation')?.status).toBe(
      'absent',
    );
    expect(report.passed).toBe(true);
    expect(code).toBe(0);
  });

  it('no-delegation → the two delegated-identity checks are absent, and the adapter is conformant (exit 0)', async () => {
    const { code, stdout, stderr } = await runSuiteBin([
      '--adapter-command',
      `${nodeCommand(DOUBLE, 'no-delegation')} ${nodeCommand(ADAPTER_BIN)}`,
      '--json',
    ]);
    expect(stdout, stderr).not.toBe('');
    const report = JSON.parse(stdout) as Report;
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => [c.name, c.status])).toEqual([
      ['delegation-chain', 'absent'],
      ['delegated-callers', 'absent'],
    ]);
    const callers = report.checks.find((c) => c.name === 'delegated-callers')!;
    expect(callers.notes.join('\n')).toContain('did not start with identity.parent_delegation_event');
    expect(report.optional.find((o) => o.behaviour === 'Delegated identity')?.status).toBe('absent');
    expect(report.passed).toBe(true);
    expect(code).toBe(0);
  });
});
