/**
 * The conformance matrix: servers we did not write the adapter for × the runner's requirement
 * sets × the wrapped source's `mcp_revision`, each cell scored directly, through the gateway (G:
 * the adapter's face forwarding to the server) and across XProtocol (X: face adapter A → relay →
 * endpoint adapter B → server). Every run gets a fresh server and fresh adapters, so list changes
 * one run triggers never reach another; at most `concurrency` runner processes run at once.
 * Used by test/conformance-matrix.test.ts (a slice) and scripts/conformance-matrix.mjs (all of it).
 * @module
 */
import { dirname, join } from 'node:path';
import { faceConfig, gatewayConfig, wrapperConfig } from './adapter-configs.js';
import {
  type ConformanceRunner,
  fetchConformance,
  passing,
  runConformance,
  type ScenarioResult,
} from './conformance-runner.js';
import { CONFORMANCE_FIXTURE, freePort, Processes, STRICT_2026_SERVER } from './processes.js';

/** An MCP revision a runner requires and a server speaks. */
export type Revision = '2025-11-25' | '2026-07-28';

/** How the wrapped source's `mcp_revision` is set: left out, `auto`, or the server's own revision. */
export type Setting = 'default' | 'auto' | 'own';

/** The pinned official runner. */
export const RUNNER_VERSION = '0.2.0-alpha.12';

/** A server of the matrix: how to start it (Streamable HTTP on a free port) and what it speaks. */
export interface MatrixServer {
  script: string;
  args: readonly string[];
  /** The revision `own` sets: the newest the server serves. */
  ownRevision: Revision;
  /** Its URL, from the first line it prints. */
  url(firstLine: string): string;
}

const plainUrl = (line: string) => line;
const jsonUrl = (line: string) => (JSON.parse(line) as { url: string }).url;

/** The servers, by the name the table prints. */
export const MATRIX_SERVERS = {
  /** The SDK-built fixture: both revisions on one endpoint. */
  fixture: { script: CONFORMANCE_FIXTURE, args: ['0'], ownRevision: '2026-07-28', url: plainUrl },
  /** The hand-written strict server, serving 2026-07-28 and 2025-11-25 sessions. */
  'strict-2026 dual': {
    script: STRICT_2026_SERVER,
    args: ['--revisions', 'dual'],
    ownRevision: '2026-07-28',
    url: jsonUrl,
  },
  /** The hand-written strict server that closes SSE streams and expects resumption (2025-11-25). */
  'strict-sse-polling': {
    script: join(dirname(CONFORMANCE_FIXTURE), 'strict-sse-polling-server.mjs'),
    args: ['0'],
    ownRevision: '2025-11-25',
    url: plainUrl,
  },
} as const satisfies Record<string, MatrixServer>;

export type ServerName = keyof typeof MATRIX_SERVERS;

export const REQUIREMENTS: readonly Revision[] = ['2025-11-25', '2026-07-28'];
export const SETTINGS: readonly Setting[] = ['default', 'auto', 'own'];

/** Which cells to run: every combination of the listed servers, requirement sets and settings. */
export interface MatrixSelection {
  servers: readonly ServerName[];
  requirements: readonly Revision[];
  settings: readonly Setting[];
}

/** A run's scenarios by name, or why the run gave none (an adapter that did not start…). */
export type RunOutcome = { results: Map<string, ScenarioResult> } | { error: string };

/** One row of the table: a server under one requirement set and one setting. */
export interface MatrixRow {
  server: ServerName;
  requirements: Revision;
  setting: Setting;
  direct: RunOutcome;
  gateway: RunOutcome;
  across: RunOutcome;
}

/** Options of {@link runMatrix}. */
export interface MatrixOptions {
  /** Runner processes at once (each with its server and adapters). */
  concurrency: number;
  /** The bound on one runner process; past it its process group is killed. */
  runTimeoutMs: number;
  /** Told each finished run (`server requirements target`), for progress. */
  onRun?: (label: string, outcome: RunOutcome) => void;
}

/** The `mcp_revision` line of a source body for `setting`, or none for `default`. */
function revisionLine(server: ServerName, setting: Setting): string {
  if (setting === 'default') return '';
  const revision = setting === 'auto' ? 'auto' : MATRIX_SERVERS[server].ownRevision;
  return `\n    mcp_revision: "${revision}"`;
}

/** Starts a fresh instance of `server` under `procs`; resolves with its URL. */
async function startServer(procs: Processes, server: ServerName): Promise<string> {
  const spec: MatrixServer = MATRIX_SERVERS[server];
  const { firstLine } = await procs.node(spec.script, [...spec.args]);
  return spec.url(firstLine);
}

/** The face URL of an adapter in gateway mode in front of `server`. */
async function startGateway(procs: Processes, relayUrl: string, server: ServerName, setting: Setting) {
  const url = await startServer(procs, server);
  await procs.keygen('a.key');
  const port = await freePort();
  const source = `    transport: streamable_http\n    url: ${url}${revisionLine(server, setting)}`;
  const config = gatewayConfig({
    keyFile: './a.key',
    relayUrl,
    sources: [{ name: 'upstream', body: source, namespace: 'com.test.matrix' }],
    face: { port },
    stateDatabase: './g-state.db',
  });
  await procs.adapter(procs.file('g.yml', config));
  return `http://127.0.0.1:${port}/mcp`;
}

/** The face URL of adapter A, whose xprotocol source is adapter B wrapping `server`. */
async function startAcross(procs: Processes, relayUrl: string, server: ServerName, setting: Setting) {
  const url = await startServer(procs, server);
  const a = await procs.keygen('a.key');
  const b = await procs.keygen('b.key');
  const wrapper = wrapperConfig({
    keyFile: './b.key',
    relayUrl,
    source: {
      name: 'upstream',
      body: `    transport: streamable_http\n    url: ${url}${revisionLine(server, setting)}`,
      namespace: 'com.test.matrix',
    },
    grantTo: a.ed25519,
    stateDatabase: './b-state.db',
  });
  await procs.adapter(procs.file('b.yml', wrapper));
  const port = await freePort();
  const face = faceConfig({
    keyFile: './a.key',
    relayUrl,
    sources: [{ name: 'b', key: b.ed25519 }],
    port,
    stateDatabase: './a-state.db',
  });
  await procs.adapter(procs.file('a.yml', face));
  return `http://127.0.0.1:${port}/mcp`;
}

type Target = 'direct' | 'gateway' | 'across';

/** One runner process against a fresh target; everything it started is stopped after. */
async function runOne(
  relayUrl: string,
  server: ServerName,
  requirements: Revision,
  target: Target,
  setting: Setting,
  runTimeoutMs: number,
): Promise<RunOutcome> {
  const procs = new Processes();
  try {
    const url =
      target === 'direct'
        ? await startServer(procs, server)
        : target === 'gateway'
          ? await startGateway(procs, relayUrl, server, setting)
          : await startAcross(procs, relayUrl, server, setting);
    const runner = { version: RUNNER_VERSION, args: ['--requirements', requirements] };
    return { results: await runConformance(runner, url, join(procs.dir, 'out'), procs.dir, runTimeoutMs) };
  } catch (error) {
    return { error: (error as Error).message.slice(0, 2000) };
  } finally {
    await procs.close();
  }
}

/** Runs `tasks` with at most `limit` at once, results in order. */
async function bounded<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      out[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/**
 * Runs the selected cells: one direct run per server and requirement set, and a gateway and an
 * across run per setting, under one relay; resolves with one row per server × requirements × setting.
 */
export async function runMatrix(selection: MatrixSelection, options: MatrixOptions): Promise<MatrixRow[]> {
  const shared = new Processes();
  try {
    const { url: relayUrl } = await shared.relay();
    const runner: ConformanceRunner = { version: RUNNER_VERSION, args: [] };
    await fetchConformance(runner, shared.dir, Math.max(options.runTimeoutMs, 300_000));
    const runs = new Map<string, () => Promise<RunOutcome>>();
    const add = (key: string, server: ServerName, req: Revision, target: Target, setting: Setting) =>
      runs.set(key, async () => {
        const outcome = await runOne(relayUrl, server, req, target, setting, options.runTimeoutMs);
        options.onRun?.(key, outcome);
        return outcome;
      });
    for (const server of selection.servers) {
      for (const req of selection.requirements) {
        add(`${server} ${req} direct`, server, req, 'direct', 'default');
        for (const setting of selection.settings) {
          add(`${server} ${req} G ${setting}`, server, req, 'gateway', setting);
          add(`${server} ${req} X ${setting}`, server, req, 'across', setting);
        }
      }
    }
    const keys = [...runs.keys()];
    const outcomes = await bounded([...runs.values()], options.concurrency);
    const outcome = new Map(keys.map((key, i) => [key, outcomes[i]!]));
    return selection.servers.flatMap((server) =>
      selection.requirements.flatMap((requirements) =>
        selection.settings.map((setting) => ({
          server,
          requirements,
          setting,
          direct: outcome.get(`${server} ${requirements} direct`)!,
          gateway: outcome.get(`${server} ${requirements} G ${setting}`)!,
          across: outcome.get(`${server} ${requirements} X ${setting}`)!,
        })),
      ),
    );
  } finally {
    await shared.close();
  }
}

/** The scenarios an outcome passes (none for a run that failed). */
export function passed(outcome: RunOutcome): string[] {
  return 'results' in outcome ? passing(outcome.results) : [];
}

/**
 * The scenarios whose pass or fail differs from `direct`: `+name` passes only through the
 * adapter, `-name` only directly. A run that failed differs by its error.
 */
export function differences(direct: RunOutcome, through: RunOutcome): string[] {
  if ('error' in through) return [`error: ${through.error.split('\n')[0]}`];
  const expected = new Set(passed(direct));
  const got = new Set(passed(through));
  return [
    ...[...expected].filter((name) => !got.has(name)).map((name) => `-${name}`),
    ...[...got].filter((name) => !expected.has(name)).map((name) => `+${name}`),
  ];
}
