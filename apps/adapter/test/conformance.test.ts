// The official MCP conformance server suite (@modelcontextprotocol/conformance, pinned, `--suite
// all`) against the conformance fixture directly, and through the adapter in gateway mode
// (`expose: [mcp_sources]`) with the fixture as a stdio upstream and as a Streamable HTTP upstream.
// A transparent gateway passes the same scenarios as the server itself, and so does the adapter
// across XProtocol (adapter A with adapter B, which wraps the fixture, as its xprotocol source):
// progress, log messages, subscriptions, sampling and elicitation cross in the client's MCP
// session (docs/protocol.md §10.5). Then the same with
// conformance@0.2.0-alpha.12 and `--requirements 2025-11-25`. The four targets run in parallel. The runner needs Node 22: npx fetches `node@22` and the runner from the npm registry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConformanceRunner,
  passing,
  type ScenarioResult,
  summary,
} from './support/conformance-runner.js';
import {
  type ConformanceTargets,
  runOnTargets,
  startConformanceTargets,
} from './support/conformance-targets.js';
import { Processes } from './support/processes.js';

const procs = new Processes();
let targets: ConformanceTargets;
const SUITE_MS = 10 * 60_000;
beforeAll(async () => {
  targets = await startConformanceTargets(procs);
}, 400_000);
afterAll(() => procs.close());

/** Runs `runner` against the four targets at once. */
const runAll = (runner: ConformanceRunner, label: string) =>
  runOnTargets(runner, targets, procs.dir, label, SUITE_MS);

/** What differs from the direct run, for a readable failure. */
function differences(direct: Map<string, ScenarioResult>, through: Map<string, ScenarioResult>): string[] {
  const out: string[] = [];
  for (const name of new Set([...direct.keys(), ...through.keys()])) {
    const d = direct.get(name);
    const t = through.get(name);
    if ((d?.failed === 0) !== (t?.failed === 0)) {
      out.push(
        `${name}: direct ${d ? `${d.passed}/${d.passed + d.failed}` : 'not run'}, through ${t ? `${t.passed}/${t.passed + t.failed} ${t.failures.join('; ')}` : 'not run'}`,
      );
    }
  }
  return out;
}

describe('the official MCP conformance suite, directly, through the gateway and across XProtocol', () => {
  it(
    'conformance@0.1.16 --suite all: the same scenarios pass through the adapter (stdio and Streamable HTTP upstreams) and across XProtocol as directly',
    async () => {
      const results = await runAll({ version: '0.1.16', args: ['--suite', 'all'] }, 'v0.1.16');
      process.stderr.write(`${summary('conformance@0.1.16', results)}\n`);
      const direct = passing(results.direct);
      // The fixture implements the whole server surface of this suite.
      expect(direct.length).toBeGreaterThanOrEqual(30);
      expect(differences(results.direct, results.stdio)).toEqual([]);
      expect(differences(results.direct, results.http)).toEqual([]);
      expect(passing(results.stdio)).toEqual(direct);
      expect(passing(results.http)).toEqual(direct);
      expect(differences(results.direct, results.xp)).toEqual([]);
      expect(passing(results.xp)).toEqual(direct);
    },
    SUITE_MS + 60_000,
  );

  it(
    'conformance@0.2.0-alpha.12 --requirements 2025-11-25: the same scenarios pass through the adapter and across XProtocol as directly',
    async () => {
      const results = await runAll(
        { version: '0.2.0-alpha.12', args: ['--requirements', '2025-11-25'] },
        'v0.2.0-alpha.12',
      );
      process.stderr.write(`${summary('conformance@0.2.0-alpha.12', results)}\n`);
      const direct = passing(results.direct);
      expect(direct.length).toBeGreaterThanOrEqual(30);
      expect(differences(results.direct, results.stdio)).toEqual([]);
      expect(differences(results.direct, results.http)).toEqual([]);
      expect(passing(results.stdio)).toEqual(direct);
      expect(passing(results.http)).toEqual(direct);
      expect(differences(results.direct, results.xp)).toEqual([]);
      expect(passing(results.xp)).toEqual(direct);
    },
    SUITE_MS + 60_000,
  );
});
