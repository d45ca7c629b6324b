// The official MCP conformance server suite (@modelcontextprotocol/conformance, pinned, `--suite
// all`) against the conformance fixture directly, and through the adapter in gateway mode
// (`expose: [mcp_sources]`) with the fixture as a stdio upstream and as a Streamable HTTP upstream.
// A transparent gateway passes the same scenarios as the server itself, and so does the adapter
// across XProtocol (adapter A with adapter B, which wraps the fixture, as its xprotocol source):
// progress, log messages, subscriptions, sampling and elicitation cross in the client's MCP
// session (docs/protocol.md §10.5). Then the same with
// conformance@0.2.0-alpha.12 and `--requirements 2025-11-25`. The three targets run in parallel. The runner needs Node 22: npx fetches `node@22` and the runner from the npm registry.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConformanceRunner,
  fetchConformance,
  passing,
  runConformance,
  type ScenarioResult,
} from './support/conformance-runner.js';
import { CONFORMANCE_FIXTURE, freePort, Processes } from './support/processes.js';

const procs = new Processes();
const targets: Record<'direct' | 'stdio' | 'http' | 'xp', string> = {
  direct: '',
  stdio: '',
  http: '',
  xp: '',
};
const SUITE_MS = 10 * 60_000;
beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const a = await procs.keygen('a.key');
  const fixture = await procs.node(CONFORMANCE_FIXTURE, ['0']);
  targets.direct = fixture.firstLine;
  for (const kind of ['stdio', 'http'] as const) {
    const port = await freePort();
    const source =
      kind === 'stdio'
        ? `    transport: stdio
    command: ["${process.execPath}", "${CONFORMANCE_FIXTURE}", "stdio"]`
        : `    transport: streamable_http
    url: ${fixture.firstLine}`;
    const config = procs.file(
      `${kind}.yml`,
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${source}
    xprotocol_namespace: com.test.conformance
access:
  grants: []
mcp_server:
  transport: streamable_http
  port: ${port}
  expose: [mcp_sources]
state_database: ./${kind}-state.db
logging:
  level: warn
  format: json
`,
    );
    await procs.adapter(config);
    targets[kind] = `http://127.0.0.1:${port}/mcp`;
  }
  // Across XProtocol: adapter B wraps the fixture over stdio; adapter A (key a) serves B's
  // catalog, resources, prompts and completions on its face (docs/protocol.md §10.4).
  const b = await procs.keygen('b.key');
  await procs.adapter(
    procs.file(
      'b.yml',
      `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
    transport: stdio
    command: ["${process.execPath}", "${CONFORMANCE_FIXTURE}", "stdio"]
    xprotocol_namespace: com.test.conformance
access:
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.conformance.*]
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  const port = await freePort();
  await procs.adapter(
    procs.file(
      'xp.yml',
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${b.ed25519}
    relay: ${relayUrl}
mcp_server:
  transport: streamable_http
  port: ${port}
state_database: ./xp-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  targets.xp = `http://127.0.0.1:${port}/mcp`;
}, 400_000);
afterAll(() => procs.close());

/** Runs `runner` against the three targets at once. */
async function runAll(runner: ConformanceRunner, label: string) {
  await fetchConformance(runner, procs.dir, SUITE_MS);
  const [direct, stdio, http, xp] = await Promise.all(
    (['direct', 'stdio', 'http', 'xp'] as const).map((target) =>
      runConformance(runner, targets[target], join(procs.dir, `${label}-${target}`), procs.dir, SUITE_MS),
    ),
  );
  return { direct: direct!, stdio: stdio!, http: http!, xp: xp! };
}

/** One line per target: scenarios without a failed check, and checks passed/failed. */
function summary(label: string, results: Record<string, Map<string, ScenarioResult>>): string {
  return Object.entries(results)
    .map(([target, r]) => {
      const checks = [...r.values()];
      const passed = checks.reduce((n, c) => n + c.passed, 0);
      const failed = checks.reduce((n, c) => n + c.failed, 0);
      const warned = checks.reduce((n, c) => n + c.warnings, 0);
      return `${label} ${target}: ${passing(r).length}/${r.size} scenarios, checks ${passed} passed / ${failed} failed / ${warned} warnings`;
    })
    .concat(
      // Scenarios that pass everywhere but score a different number of checks through the adapter.
      [...results.direct!].flatMap(([name, d]) =>
        Object.entries(results)
          .filter(([target, r]) => target !== 'direct' && r.get(name)?.passed !== d.passed)
          .map(
            ([target, r]) =>
              `${label} ${name}: checks passed direct ${d.passed} (w${d.warnings}), ${target} ${r.get(name)?.passed} (w${r.get(name)?.warnings})`,
          ),
      ),
    )
    .join('\n');
}

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
