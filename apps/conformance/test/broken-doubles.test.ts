// Every check can fail: each deliberately broken adapter (test/doubles/broken-adapter.mjs) breaks
// one rule, and the suite must fail exactly the matching check and pass the other ten.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTER_BIN, nodeCommand, runSuiteBin } from './_run.js';

const DOUBLE = join(import.meta.dirname, 'doubles', 'broken-adapter.mjs');

const CASES = [
  { mode: 'allow-all', fails: 'capability' },
  { mode: 'no-mcp-sources', fails: 'trust-disclosure' },
  { mode: 'nondeterministic', fails: 'deterministic' },
  { mode: 'bad-grammar', fails: 'gbnf' },
  { mode: 'wrong-errors', fails: 'errors' },
  { mode: 'skip-signatures', fails: 'signatures' },
] as const;

describe.concurrent('a broken adapter fails its matching check and no other', () => {
  for (const { mode, fails } of CASES) {
    it(`${mode} → only ${fails} fails (exit 1)`, async () => {
      const { code, stdout, stderr } = await runSuiteBin([
        '--adapter-command',
        `${nodeCommand(DOUBLE, mode)} ${nodeCommand(ADAPTER_BIN)}`,
        '--json',
      ]);
      expect(stdout, stderr).not.toBe('');
      const report = JSON.parse(stdout) as {
        passed: boolean;
        checks: {
          name: string;
          status: string;
          failures: { what: string; sent: string; received: string; expected: string }[];
        }[];
      };
      const failed = report.checks.filter((c) => c.status === 'fail');
      expect(failed.map((c) => c.name)).toEqual([fails]);
      expect(report.checks).toHaveLength(11);
      expect(code).toBe(1);
      expect(report.passed).toBe(false);
      // Every failure says what was sent, what came back and what was expected.
      for (const failure of failed[0]!.failures) {
        expect(failure.sent.length * failure.received.length * failure.expected.length).toBeGreaterThan(0);
      }
    });
  }
});
