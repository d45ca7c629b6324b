// The adapter as an OAuth client of a remote MCP server, measured by the official runner's client
// side (@modelcontextprotocol/conformance@0.2.0-alpha.12, `conformance client --scenario auth/…`;
// docs/conformance.md, "OAuth client: the auth suite"). The client under test is
// scripts/conformance-auth-client.mjs: it configures the real adapter with the scenario's server as
// an `auth.type: oauth` source, runs `xprotocol-adapter login` and plays the browser, then lists
// and calls the tools through the adapter's stdio face. Every OAuth request is the adapter's.
// A slice of the suite runs here, one scenario at a time (the whole suite, also one at a time, is
// the documented script's: each scenario starts a relay, `login` and the adapter): the
// authorization code flow with a registered client that then needs a wider scope in the middle of
// a call (the adapter asks the face client by URL-mode elicitation, which the script answers as
// the browser), with a pre-registered confidential client, the token endpoint authentication the
// server lists, client credentials, and a resource that moves to a new authorization server. The runner needs
// Node 22: npx fetches `node@22` and the runner from the npm registry.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConformanceRunner, fetchConformance, runClientScenario } from './support/conformance-runner.js';
import { Processes } from './support/processes.js';

const RUNNER: ConformanceRunner = { version: '0.2.0-alpha.12', args: [] };
const CLIENT = join(import.meta.dirname, '..', 'scripts', 'conformance-auth-client.mjs');
const SCENARIO_MS = 4 * 60_000;

/** The slice: each must pass every check, and the client must exit 0. */
const SLICE = [
  // Discovery, registration and PKCE as metadata-default, then the step-up.
  'auth/scope-step-up',
  'auth/pre-registration',
  'auth/token-endpoint-auth-post',
  'auth/client-credentials-basic',
  'auth/authorization-server-migration',
];

const procs = new Processes();
afterAll(() => procs.close());

describe('the official auth client scenarios, through the adapter', () => {
  it(
    'passes the core authorization scenarios',
    async () => {
      await fetchConformance(RUNNER, procs.dir, 5 * 60_000);
      // The adapter runs on this Node (the runner's own is Node 22).
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLIENT)}`;
      const outcomes: string[] = [];
      for (const scenario of SLICE) {
        const result = await runClientScenario(
          RUNNER,
          command,
          scenario,
          join(procs.dir, 'results'),
          procs.dir,
          SCENARIO_MS,
        );
        if (!result.overall || result.failed > 0 || result.warnings > 0)
          outcomes.push(`${scenario}: ${result.failures.join('; ') || 'the client failed'}\n${result.log}`);
        else outcomes.push(`${scenario}: passed ${result.passed}`);
      }
      console.log(outcomes.map((line) => line.split('\n')[0]).join('\n'));
      expect(outcomes.filter((line) => !/^\S+: passed \d+$/.test(line))).toEqual([]);
    },
    SLICE.length * SCENARIO_MS + 6 * 60_000,
  );
});
