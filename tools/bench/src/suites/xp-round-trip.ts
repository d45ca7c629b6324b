/**
 * Suite 2, the XProtocol round trip: an SDK client calls server-memory's `read_graph` directly
 * over stdio (baseline), through one adapter's gateway (reference), and across XProtocol: adapter
 * A's MCP face → the relay (durable SQLite store) → adapter B → server-memory over stdio, and the
 * sealed answer back. Every event signed, encrypted, verified and deduplicated on both ends.
 * The same path with both adapters tracing every call (docs/operating.md, "Traces"; spans to an
 * OTLP/HTTP sink on loopback) races beside it: `traced/xp` is what tracing on costs; with tracing
 * off (every other peer) the call paths do nothing for it. Concurrency 1 and 32, interleaved rounds.
 *
 * `BENCH_XP_COMPARE=<adapter bin.js of another build>[,<another>…]` adds one peer per build: the
 * same A → relay → B path with both adapters of that build (own keys and state files, the same
 * relay), so old and new builds race in one run.
 * @module
 */
import type { Client } from '@modelcontextprotocol/client';
import { endpointYaml, gatewayYaml, xpClientYaml } from '../adapter-configs.js';
import { otherBuilds } from '../compare-builds.js';
import { findTool, httpClient, stdioClient, toolPeer } from '../mcp-peers.js';
import { startOtlpSink } from '../otlp-sink.js';
import { freePort, MEMORY_SERVER, Processes } from '../processes.js';
import { overheadRatio, type PeerResult, race } from '../race.js';
import { raceTable, type Size, type SuiteOptions, type SuiteResult, type Table } from '../suite.js';

/** Rounds × calls per round at each concurrency. */
export function xpPlan(size: Size) {
  return {
    full: { c1: { rounds: 10, callsPerRound: 100 }, c32: { rounds: 8, callsPerRound: 640 } },
    quick: { c1: { rounds: 6, callsPerRound: 30 }, c32: { rounds: 5, callsPerRound: 128 } },
    // The gate races at concurrency 1 only: at 32 the peers' medians swing with the machine's load.
    gate: { c1: { rounds: 8, callsPerRound: 15 }, c32: undefined },
  }[size];
}

export async function xpSuite(options: SuiteOptions): Promise<SuiteResult> {
  const procs = new Processes();
  const clients: Client[] = [];
  const sink = await startOtlpSink();
  try {
    const memoryEnv = { MEMORY_FILE_PATH: procs.file('memory.jsonl', '') };
    const memorySource = {
      name: 'memory',
      namespace: 'com.bench.memory',
      stdio: { command: [process.execPath, MEMORY_SERVER], env: memoryEnv },
    };
    options.log('xp: starting the relay (durable), adapters A and B, and the gateway reference');
    const { url: relayUrl } = await procs.relay({ durable: true });
    // The gateway reference has a key of its own: with A's it would also receive (and check) A's answers.
    // Resolved here: the adapters run in the suite's temporary directory.
    const compareBins = otherBuilds('BENCH_XP_COMPARE').map((build) => build.bin);
    const [a, b, g, at, bt] = await Promise.all([
      procs.keygen('a.key'),
      procs.keygen('b.key'),
      procs.keygen('g.key'),
      procs.keygen('at.key'),
      procs.keygen('bt.key'),
    ]);
    const aPort = await freePort();
    const tracedPort = await freePort();
    const gatewayPort = await freePort();
    // Started together: A finds B through the relay whenever B comes up.
    await Promise.all([
      procs.adapter(
        'b',
        endpointYaml({
          keyFile: b.path,
          relayUrl,
          sources: [memorySource],
          grants: [{ key: a.ed25519, capabilities: ['com.bench.memory.*'] }],
          stateDatabase: './b.db',
        }),
      ),
      procs.adapter(
        'a',
        xpClientYaml({
          keyFile: a.path,
          relayUrl,
          port: aPort,
          endpointKey: b.ed25519,
          stateDatabase: './a.db',
        }),
      ),
      procs.adapter(
        'bt',
        endpointYaml({
          keyFile: bt.path,
          relayUrl,
          sources: [memorySource],
          grants: [{ key: at.ed25519, capabilities: ['com.bench.memory.*'] }],
          stateDatabase: './bt.db',
          tracing: sink.url,
        }),
      ),
      procs.adapter(
        'at',
        xpClientYaml({
          keyFile: at.path,
          relayUrl,
          port: tracedPort,
          endpointKey: bt.ed25519,
          stateDatabase: './at.db',
          tracing: sink.url,
        }),
      ),
      procs.adapter(
        'gateway',
        gatewayYaml({
          keyFile: g.path,
          relayUrl,
          port: gatewayPort,
          sources: [memorySource],
          stateDatabase: './gateway.db',
        }),
      ),
    ]);
    const direct = await stdioClient('direct', MEMORY_SERVER, [], memoryEnv);
    clients.push(direct);
    const viaGateway = await httpClient('gateway', `http://127.0.0.1:${gatewayPort}/mcp`);
    clients.push(viaGateway);
    const viaXp = await httpClient('xp', `http://127.0.0.1:${aPort}/mcp`);
    clients.push(viaXp);
    const viaTraced = await httpClient('xp-traced', `http://127.0.0.1:${tracedPort}/mcp`);
    clients.push(viaTraced);
    const peers = [
      toolPeer('direct, stdio (baseline)', { client: direct, tool: 'read_graph', arguments: {} }),
      toolPeer('one adapter, gateway', {
        client: viaGateway,
        tool: await findTool(viaGateway, 'read_graph'),
        arguments: {},
      }),
      toolPeer('across XProtocol: A → relay → B', {
        client: viaXp,
        tool: await findTool(viaXp, 'read_graph'),
        arguments: {},
      }),
      toolPeer('across XProtocol, both adapters tracing', {
        client: viaTraced,
        tool: await findTool(viaTraced, 'read_graph'),
        arguments: {},
      }),
    ];
    for (const [i, bin] of compareBins.entries()) {
      const [ai, bi] = await Promise.all([procs.keygen(`a${i}.key`), procs.keygen(`b${i}.key`)]);
      const port = await freePort();
      await Promise.all([
        procs.adapter(
          `b${i}`,
          endpointYaml({
            keyFile: bi.path,
            relayUrl,
            sources: [memorySource],
            grants: [{ key: ai.ed25519, capabilities: ['com.bench.memory.*'] }],
            stateDatabase: `./b${i}.db`,
          }),
          undefined,
          bin,
        ),
        procs.adapter(
          `a${i}`,
          xpClientYaml({
            keyFile: ai.path,
            relayUrl,
            port,
            endpointKey: bi.ed25519,
            stateDatabase: `./a${i}.db`,
          }),
          undefined,
          bin,
        ),
      ]);
      const viaCompare = await httpClient(`xp-compare-${i}`, `http://127.0.0.1:${port}/mcp`);
      clients.push(viaCompare);
      peers.push(
        toolPeer(`across XProtocol, build ${bin}`, {
          client: viaCompare,
          tool: await findTool(viaCompare, 'read_graph'),
          arguments: {},
        }),
      );
    }
    const plan = xpPlan(options.size);
    const tables: Table[] = [];
    const ratios: Record<string, number> = {};
    const data: Record<string, PeerResult[]> = {};
    for (const concurrency of [1, 32] as const) {
      const shape = concurrency === 1 ? plan.c1 : plan.c32;
      if (shape === undefined) continue;
      options.log(`xp: read_graph round trip, concurrency ${concurrency}`);
      const results = await race(peers, { ...shape, concurrency, warmup: 2 * concurrency });
      data[`c${concurrency}`] = results;
      tables.push(
        raceTable(`server-memory \`read_graph\` across XProtocol, concurrency ${concurrency}`, results),
      );
      ratios[`xp.c${concurrency}.xp/direct`] = results[2]!.ratio;
      ratios[`xp.c${concurrency}.xp/gateway`] = results[2]!.ratio / results[1]!.ratio;
      ratios[`xp.c${concurrency}.added:xp/gateway`] = overheadRatio(results[2]!, results[1]!, results[0]!);
      ratios[`xp.c${concurrency}.traced/xp`] = results[3]!.ratio / results[2]!.ratio;
    }
    // Four spans a call: a traced peer that sent none measured nothing.
    if (sink.spans() === 0) throw new Error('xp: the traced adapters sent no spans to the OTLP sink');
    return { id: 'xp', title: 'XProtocol round trip', tables, ratios, data };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await procs.close();
    await sink.close();
  }
}
