// MCP revision 2026-07-28 (stateless: per-request `_meta`, `server/discover`,
// `subscriptions/listen`, input-required results, `Mcp-Method` headers, cache hints).
//
// The official runner (@modelcontextprotocol/conformance@0.2.0-alpha.12, `--requirements
// 2026-07-28`) against the conformance fixture directly must score exactly the scenarios
// docs/conformance.md ("MCP 2026-07-28") lists as passing. The same set is run at the same time
// through the adapter in gateway mode (stdio and Streamable HTTP upstreams) and across XProtocol;
// those three scores are printed, not asserted: they measure what the adapter's face still lacks
// of the revision. The fixture's stdio mode is checked with the SDK's own client in both
// revisions (the runner speaks only Streamable HTTP).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
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
  TARGETS,
} from './support/conformance-targets.js';
import { CONFORMANCE_FIXTURE, Processes } from './support/processes.js';

const RUNNER: ConformanceRunner = { version: '0.2.0-alpha.12', args: ['--requirements', '2026-07-28'] };
const SUITE_MS = 10 * 60_000;

/**
 * The fixture's direct score (docs/conformance.md, "MCP 2026-07-28"): all 37 scenarios the
 * revision requires, and four of the 13 it runs without scoring.
 */
const PASSING = [
  'caching',
  'completion-complete',
  'dns-rebinding-protection',
  'http-custom-header-server-validation',
  'http-header-validation',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-list-roots',
  'input-required-result-basic-sampling',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-missing-input-response',
  'input-required-result-multi-round',
  'input-required-result-multiple-input-requests',
  'input-required-result-non-tool-request',
  'input-required-result-request-state',
  'input-required-result-result-type',
  'input-required-result-tampered-state',
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
  'json-schema-2020-12',
  'prompts-get-embedded-resource',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-with-image',
  'prompts-list',
  'resources-list',
  'resources-read-binary',
  'resources-read-text',
  'resources-templates-read',
  'sep-2164-resource-not-found',
  'server-sse-multiple-streams',
  'server-stateless',
  'tasks-status-notifications',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-error',
  'tools-call-image',
  'tools-call-mixed-content',
  'tools-call-simple-text',
  'tools-call-with-progress',
  'tools-list',
];

/**
 * Not scored by the revision (the tasks extension), and failing: the released SDK does not
 * implement that extension (docs/conformance.md says why).
 */
const FAILING = [
  'tasks-capability-negotiation',
  'tasks-dispatch-and-envelope',
  'tasks-lifecycle',
  'tasks-mrtr-composition',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-request-state-removal',
  'tasks-required-task-error',
  'tasks-wire-fields',
];

const procs = new Processes();
let targets: ConformanceTargets;
beforeAll(async () => {
  // Every adapter speaks 2026-07-28 to the fixture, as a deployment in front of a 2026-07-28 server would.
  targets = await startConformanceTargets(procs, { mcpRevision: '2026-07-28' });
}, 400_000);
afterAll(() => procs.close());

/** `checks passed/total` of a scenario, or `not run`. */
const _score = (r: ScenarioResult | undefined) => (r ? `${r.passed}/${r.passed + r.failed}` : 'not run');

/** One line per scenario that fails somewhere: its score on every target. */
function _gap(results: Record<string, Map<string, ScenarioResult>>): string {
  const names = [...new Set(Object.values(results).flatMap((r) => [...r.keys()]))].sort();
  return names
    .filter((name) => Object.values(results).some((r) => r.get(name)?.failed !== 0))
    .map((name) => {
      const line = `  ${name}: ${TARGETS.map((t) => `${t} ${_score(results[t]!.get(name))}`).join(', ')}`;
      // Where it passes directly, the failed checks elsewhere say why.
      if (results.direct!.get(name)?.failed !== 0) return line;
      const why = TARGETS.flatMap((t) =>
        (results[t]!.get(name)?.failures ?? []).map((f) => `    ${t}: ${f}`),
      );
      return [line, ...why].join('\n');
    })
    .join('\n');
}

describe('MCP 2026-07-28', () => {
  it(
    'conformance@0.2.0-alpha.12 --requirements 2026-07-28: the fixture scores the documented scenarios, and so does the adapter: the gateway with stdio and HTTP upstreams, and across XProtocol',
    async () => {
      const results = await runOnTargets(RUNNER, targets, procs.dir, 'v2026', SUITE_MS);
      // The per-target totals, then every scenario that fails somewhere with its score everywhere.
      const totals = summary('conformance@0.2.0-alpha.12 --requirements 2026-07-28', results)
        .split('\n')
        .slice(0, TARGETS.length)
        .join('\n');
      process.stderr.write(
        `${totals}\nscenarios failing somewhere (checks passed/total):\n${_gap(results)}\n`,
      );
      expect(passing(results.direct)).toEqual(PASSING);
      expect([...results.direct.keys()].filter((name) => !PASSING.includes(name)).sort()).toEqual(FAILING);
      // Through the gateway, with either upstream transport, every scenario passes that passes directly.
      expect(passing(results.stdio)).toEqual(PASSING);
      expect(passing(results.http)).toEqual(PASSING);
      // Across XProtocol too (the endpoint's server speaks 2026-07-28: its input-required results cross as they are).
      expect(passing(results.xp)).toEqual(PASSING);
    },
    SUITE_MS + 60_000,
  );

  it('the fixture over stdio: a 2026-07-28 client gets input-required results, a 2025-11-25 client server -> client requests, for sampling and elicitation alike', async () => {
    for (const [mode, version] of [
      [{ pin: '2026-07-28' }, '2026-07-28'],
      ['legacy', '2025-11-25'],
    ] as const) {
      const asked: string[] = [];
      const client = new Client(
        { name: 'stdio-probe', version: '0.0.0' },
        { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(`elicitation: ${request.params.message}`);
        return { action: 'accept', content: { name: 'Alice', username: 'alice', email: 'a@example.com' } };
      });
      client.setRequestHandler('sampling/createMessage', async () => {
        asked.push('sampling');
        return { role: 'assistant', model: 'stub', content: { type: 'text', text: 'Paris' } };
      });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [CONFORMANCE_FIXTURE, 'stdio'] }),
      );
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const call = async (name: string, args: Record<string, unknown> = {}) => {
          const result = await client.callTool({ name, arguments: args });
          return (result.content as { text?: string }[])[0]?.text;
        };
        expect(await call('test_sampling', { prompt: 'Capital of France?' })).toBe('LLM response: Paris');
        expect(await call('test_elicitation', { message: 'Who are you?' })).toBe(
          'User response: {"action":"accept","content":{"name":"Alice","username":"alice","email":"a@example.com"}}',
        );
        expect(await call('test_input_required_result_sampling')).toBe('LLM response: Paris');
        expect(await call('test_input_required_result_elicitation')).toBe('Hello, Alice!');
        expect(asked).toEqual([
          'sampling',
          'elicitation: Who are you?',
          'sampling',
          'elicitation: What is your name?',
        ]);
      } finally {
        await client.close();
      }
    }
  });
});
