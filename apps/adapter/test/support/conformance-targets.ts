// The four places the official MCP conformance server suite is pointed at: the conformance fixture
// directly (Streamable HTTP), the adapter in gateway mode (`expose: [mcp_sources]`) with the
// fixture as a stdio upstream and as a Streamable HTTP upstream, and the adapter across XProtocol
// (adapter A with adapter B, which wraps the fixture over stdio, as its xprotocol source).
import { join } from 'node:path';
import { conformanceStdioBody, faceConfig, gatewayConfig, wrapperConfig } from './adapter-configs.js';
import {
  type ConformanceRunner,
  fetchConformance,
  runConformance,
  type ScenarioResult,
} from './conformance-runner.js';
import { CONFORMANCE_FIXTURE, freePort, type Processes } from './processes.js';

/** The MCP endpoint of each target. */
export interface ConformanceTargets {
  direct: string;
  stdio: string;
  http: string;
  xp: string;
}

/** Target names, in the order the reports print them. */
export const TARGETS = ['direct', 'stdio', 'http', 'xp'] as const;

/**
 * Starts a relay, the fixture and three adapters under `procs`; resolves with their URLs. With
 * `mcpRevision`, every adapter speaks that MCP revision to the fixture (`mcp_sources[].mcp_revision`).
 */
export async function startConformanceTargets(
  procs: Processes,
  options: { mcpRevision?: '2026-07-28' } = {},
): Promise<ConformanceTargets> {
  const revision = options.mcpRevision ? `\n    mcp_revision: "${options.mcpRevision}"` : '';
  const { url: relayUrl } = await procs.relay();
  const a = await procs.keygen('a.key');
  const fixture = await procs.node(CONFORMANCE_FIXTURE, ['0']);
  const targets: ConformanceTargets = { direct: fixture.firstLine, stdio: '', http: '', xp: '' };
  for (const kind of ['stdio', 'http'] as const) {
    const port = await freePort();
    const source =
      kind === 'stdio'
        ? `${conformanceStdioBody()}${revision}`
        : // A fixture of its own: list changes the direct run triggers must not reach this run.
          `    transport: streamable_http
    url: ${(await procs.node(CONFORMANCE_FIXTURE, ['0'])).firstLine}${revision}`;
    const config = procs.file(
      `${kind}.yml`,
      gatewayConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [{ name: 'conformance', body: source, namespace: 'com.test.conformance' }],
        face: { port },
        stateDatabase: `./${kind}-state.db`,
      }),
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
      wrapperConfig({
        keyFile: './b.key',
        relayUrl,
        source: {
          name: 'conformance',
          body: `${conformanceStdioBody()}${revision}`,
          namespace: 'com.test.conformance',
        },
        grantTo: a.ed25519,
        stateDatabase: './b-state.db',
      }),
    ),
  );
  const port = await freePort();
  await procs.adapter(
    procs.file(
      'xp.yml',
      faceConfig({
        keyFile: './a.key',
        relayUrl,
        sources: [{ name: 'b', key: b.ed25519 }],
        port,
        stateDatabase: './xp-state.db',
      }),
    ),
  );
  targets.xp = `http://127.0.0.1:${port}/mcp`;
  return targets;
}

/** Runs `runner` against every target at once (results under `dir/<label>-<target>`). */
export async function runOnTargets(
  runner: ConformanceRunner,
  targets: ConformanceTargets,
  dir: string,
  label: string,
  timeoutMs: number,
): Promise<Record<(typeof TARGETS)[number], Map<string, ScenarioResult>>> {
  await fetchConformance(runner, dir, timeoutMs);
  const [direct, stdio, http, xp] = await Promise.all(
    TARGETS.map((target) =>
      runConformance(runner, targets[target], join(dir, `${label}-${target}`), dir, timeoutMs),
    ),
  );
  return { direct: direct!, stdio: stdio!, http: http!, xp: xp! };
}
