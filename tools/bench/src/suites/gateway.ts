/**
 * Suite 1, the gateway's overhead per `tools/call`: the same SDK client calls server-memory's
 * `read_graph` directly over stdio (baseline), through supergateway's one-liner (stateful
 * Streamable HTTP → stdio), through the adapter's MCP face (a config file, Streamable HTTP → stdio
 * upstream) and, outside the gate's short run, through the adapter's one-liner
 * (`xprotocol-adapter gateway -- <cmd>`: no file, no relay, with its bearer token); and
 * server-everything's `echo` directly over Streamable HTTP (baseline) and through the adapter with
 * a Streamable HTTP upstream. Concurrency 1 and 32, interleaved rounds.
 *
 * `BENCH_GATEWAY_COMPARE=<adapter bin.js of another build>[,<another>…]` adds, in each group, one
 * adapter of each of those builds in front of the same upstream, so old and new builds race in one run.
 * @module
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { gatewayYaml, type SourceYaml } from '../adapter-configs.js';
import { otherBuilds } from '../compare-builds.js';
import { startFloor } from '../floor.js';
import { findTool, httpClient, stdioClient, toolPeer } from '../mcp-peers.js';
import {
  ADAPTER_BIN,
  EVERYTHING_SERVER,
  freePort,
  MEMORY_SERVER,
  PEERS_DIR,
  Processes,
  SUPERGATEWAY_BIN,
  waitForLine,
} from '../processes.js';
import { overheadRatio, type PeerResult, race } from '../race.js';
import { raceTable, type Size, type SuiteOptions, type SuiteResult, type Table } from '../suite.js';

/** Rounds × calls per round at each concurrency. */
export function gatewayPlan(size: Size) {
  return {
    full: { c1: { rounds: 12, callsPerRound: 200 }, c32: { rounds: 10, callsPerRound: 1600 } },
    quick: { c1: { rounds: 8, callsPerRound: 60 }, c32: { rounds: 6, callsPerRound: 320 } },
    // The gate races at concurrency 1 only: at 32 the peers' medians swing with the machine's load.
    gate: { c1: { rounds: 9, callsPerRound: 30 }, c32: undefined },
  }[size];
}

/** Options of the gate: the stdio group only, and a deliberately slowed adapter as a control. */
export interface GatewayGateOptions {
  /** Skip the Streamable HTTP upstream group. */
  readonly only?: 'stdio';
  /** Race one more adapter that spins this many ms of CPU per HTTP request (peers/slowdown.cjs). */
  readonly controlSlowdownMs?: number;
}

/** Runs the suite. */
export async function gatewaySuite(options: SuiteOptions & GatewayGateOptions): Promise<SuiteResult> {
  const procs = new Processes();
  const clients: Client[] = [];
  try {
    const memoryFile = procs.file('memory.jsonl', '');
    const memoryEnv = { MEMORY_FILE_PATH: memoryFile };
    const { url: relayUrl } = await procs.relay({ durable: false });
    const [key, controlKey] = await Promise.all([procs.keygen('gateway.key'), procs.keygen('control.key')]);

    options.log('gateway: starting server-memory peers (direct, supergateway, adapter)');
    const memorySource = {
      name: 'memory',
      namespace: 'com.bench.memory',
      stdio: { command: [process.execPath, MEMORY_SERVER], env: memoryEnv },
    };
    const sgPort = await freePort();
    const facePort = await freePort();
    const controlPort = await freePort();
    const sg = procs.spawn(
      SUPERGATEWAY_BIN,
      [
        '--stdio',
        `"${process.execPath}" "${MEMORY_SERVER}"`,
        '--outputTransport',
        'streamableHttp',
        '--stateful',
        '--port',
        String(sgPort),
        '--logLevel',
        'none',
      ],
      { env: memoryEnv },
    );
    // The floor (peers/floor-passthrough.mjs): what no gateway can beat. Like the one-liner, not
    // in the gate's short run, whose cost stays what it was.
    const viaFloor =
      options.size === 'gate'
        ? undefined
        : await startFloor(procs, ['stdio', process.execPath, MEMORY_SERVER], memoryEnv);
    const control = options.controlSlowdownMs;
    // The gate's short run leaves the one-liner out: it adds a process, and the gate checks the file's adapter.
    const oneLiner = options.size === 'gate' ? undefined : await _startOneLiner(procs, memoryEnv);
    // Started together (the connects retry until each listens).
    const [direct, viaSg, viaUs, viaControl] = await Promise.all([
      stdioClient('direct', MEMORY_SERVER, [], memoryEnv),
      httpClient('supergateway', `http://127.0.0.1:${sgPort}/mcp`),
      procs
        .adapter(
          'gateway-stdio',
          gatewayYaml({
            keyFile: key.path,
            relayUrl,
            port: facePort,
            sources: [memorySource],
            stateDatabase: './gw.db',
          }),
        )
        .then(() => httpClient('adapter', `http://127.0.0.1:${facePort}/mcp`)),
      control === undefined
        ? undefined
        : procs
            .adapter(
              'gateway-control',
              gatewayYaml({
                keyFile: controlKey.path,
                relayUrl,
                port: controlPort,
                sources: [memorySource],
                stateDatabase: './control.db',
              }),
              {
                NODE_OPTIONS: `--require ${JSON.stringify(join(PEERS_DIR, 'slowdown.cjs'))}`,
                BENCH_SLOWDOWN_MS: String(control),
              },
            )
            .then(() => httpClient('control', `http://127.0.0.1:${controlPort}/mcp`)),
    ]);
    clients.push(direct, viaSg, viaUs);
    const builds = otherBuilds('BENCH_GATEWAY_COMPARE');
    /** An adapter of each other build in front of `source`, as peers named after `what`. */
    const otherPeers = (what: string, source: SourceYaml, tool: string, args: Record<string, unknown>) =>
      Promise.all(
        builds.map(async (build, i) => {
          const port = await freePort();
          const id = `${source.name}-compare-${i}`;
          await procs.adapter(
            id,
            gatewayYaml({
              keyFile: key.path,
              relayUrl,
              port,
              sources: [source],
              stateDatabase: `./${id}.db`,
            }),
            undefined,
            build.bin,
          );
          const client = await httpClient(id, `http://127.0.0.1:${port}/mcp`);
          clients.push(client);
          return toolPeer(`${what}, build ${build.label}`, {
            client,
            tool: await findTool(client, tool),
            arguments: args,
          });
        }),
      );
    if (sg.exitCode !== null) throw new Error(`supergateway exited ${sg.exitCode}:\n${procs.stderrTail(sg)}`);
    const memoryPeers = [
      toolPeer('direct, stdio (baseline)', { client: direct, tool: 'read_graph', arguments: {} }),
      toolPeer('supergateway 4.0.0, HTTP → stdio', {
        client: viaSg,
        tool: await findTool(viaSg, 'read_graph'),
        arguments: {},
      }),
      toolPeer('adapter gateway, HTTP → stdio', {
        client: viaUs,
        tool: await findTool(viaUs, 'read_graph'),
        arguments: {},
      }),
    ];
    const floorAt = viaFloor ? memoryPeers.length : undefined;
    if (viaFloor) {
      clients.push(viaFloor);
      memoryPeers.push(
        toolPeer('floor: bare Node passthrough, HTTP → stdio', {
          client: viaFloor,
          tool: 'read_graph',
          arguments: {},
        }),
      );
    }
    // Beside supergateway's one-liner, the adapter's: `xprotocol-adapter gateway -- <cmd>`.
    const oneLinerAt = oneLiner ? memoryPeers.length : undefined;
    if (oneLiner) {
      clients.push(oneLiner);
      memoryPeers.push(
        toolPeer('adapter one-liner (gateway -- <cmd>), HTTP → stdio', {
          client: oneLiner,
          tool: await findTool(oneLiner, 'read_graph'),
          arguments: {},
        }),
      );
    }
    const controlAt = viaControl ? memoryPeers.length : undefined;
    if (viaControl) {
      clients.push(viaControl);
      memoryPeers.push(
        toolPeer(`control: adapter + ${control} ms CPU per request`, {
          client: viaControl,
          tool: await findTool(viaControl, 'read_graph'),
          arguments: {},
        }),
      );
    }

    const comparedMemory = await otherPeers('adapter gateway, HTTP → stdio', memorySource, 'read_graph', {});
    memoryPeers.push(...comparedMemory);
    const plan = gatewayPlan(options.size);
    const tables: Table[] = [];
    const ratios: Record<string, number> = {};
    const data: Record<string, PeerResult[]> = {};
    for (const concurrency of [1, 32] as const) {
      const shape = concurrency === 1 ? plan.c1 : plan.c32;
      if (shape === undefined) continue;
      options.log(`gateway: server-memory read_graph, concurrency ${concurrency}`);
      const results = await race(memoryPeers, { ...shape, concurrency, warmup: 2 * concurrency });
      data[`memory.c${concurrency}`] = results;
      tables.push(
        raceTable(`server-memory \`read_graph\`, stdio upstream, concurrency ${concurrency}`, results),
      );
      const [, sgResult, usResult] = results;
      ratios[`gateway.stdio.c${concurrency}.adapter/direct`] = usResult!.ratio;
      ratios[`gateway.stdio.c${concurrency}.supergateway/direct`] = sgResult!.ratio;
      ratios[`gateway.stdio.c${concurrency}.adapter/supergateway`] = usResult!.ratio / sgResult!.ratio;
      ratios[`gateway.stdio.c${concurrency}.added:adapter/supergateway`] = overheadRatio(
        usResult!,
        sgResult!,
        results[0]!,
      );
      if (floorAt !== undefined)
        _floorRatios(ratios, `gateway.stdio.c${concurrency}`, usResult!, results[floorAt]!, results[0]!);
      const oneLinerResult = oneLinerAt === undefined ? undefined : results[oneLinerAt];
      if (oneLinerResult) {
        ratios[`gateway.stdio.c${concurrency}.oneliner/supergateway`] =
          oneLinerResult.ratio / sgResult!.ratio;
        ratios[`gateway.stdio.c${concurrency}.added:oneliner/supergateway`] = overheadRatio(
          oneLinerResult,
          sgResult!,
          results[0]!,
        );
      }
      const controlResult = controlAt === undefined ? undefined : results[controlAt];
      if (controlResult) {
        ratios[`gateway.stdio.c${concurrency}.control/supergateway`] = controlResult.ratio / sgResult!.ratio;
        ratios[`gateway.stdio.c${concurrency}.added:control/supergateway`] = overheadRatio(
          controlResult,
          sgResult!,
          results[0]!,
        );
      }
    }

    if (options.only !== 'stdio') {
      options.log('gateway: starting server-everything over Streamable HTTP and an adapter in front of it');
      const upstreamPort = await freePort();
      const everything = procs.spawn(EVERYTHING_SERVER, ['streamableHttp'], {
        env: { PORT: String(upstreamPort) },
      });
      await waitForLine(
        everything,
        'stderr',
        (line) => line.includes('listening'),
        30_000,
        'server-everything',
      );
      const upstreamUrl = `http://127.0.0.1:${upstreamPort}/mcp`;
      const directHttp = await httpClient('direct-http', upstreamUrl);
      clients.push(directHttp);
      const httpFacePort = await freePort();
      await procs.adapter(
        'gateway-http',
        gatewayYaml({
          keyFile: key.path,
          relayUrl,
          port: httpFacePort,
          sources: [{ name: 'everything', namespace: 'com.bench.everything', url: upstreamUrl }],
          stateDatabase: './gateway-http.db',
        }),
      );
      const viaUsHttp = await httpClient('adapter-http', `http://127.0.0.1:${httpFacePort}/mcp`);
      const viaFloorHttp = await startFloor(procs, ['http', upstreamUrl]);
      clients.push(viaUsHttp, viaFloorHttp);
      const comparedHttp = await otherPeers(
        'adapter gateway, HTTP → HTTP',
        { name: 'everything', namespace: 'com.bench.everything', url: upstreamUrl },
        'echo',
        { message: 'bench' },
      );
      const httpPeers = [
        toolPeer('direct, Streamable HTTP (baseline)', {
          client: directHttp,
          tool: 'echo',
          arguments: { message: 'bench' },
        }),
        toolPeer('adapter gateway, HTTP → HTTP', {
          client: viaUsHttp,
          tool: await findTool(viaUsHttp, 'echo'),
          arguments: { message: 'bench' },
        }),
        toolPeer('floor: bare Node passthrough, HTTP → HTTP', {
          client: viaFloorHttp,
          tool: 'echo',
          arguments: { message: 'bench' },
        }),
        ...comparedHttp,
      ];
      for (const concurrency of [1, 32] as const) {
        const shape = concurrency === 1 ? plan.c1 : plan.c32;
        if (shape === undefined) continue;
        options.log(`gateway: server-everything echo, concurrency ${concurrency}`);
        const results = await race(httpPeers, { ...shape, concurrency, warmup: 2 * concurrency });
        data[`everything.c${concurrency}`] = results;
        tables.push(
          raceTable(
            `server-everything \`echo\`, Streamable HTTP upstream, concurrency ${concurrency}`,
            results,
          ),
        );
        ratios[`gateway.http.c${concurrency}.adapter/direct`] = results[1]!.ratio;
        _floorRatios(ratios, `gateway.http.c${concurrency}`, results[1]!, results[2]!, results[0]!);
      }
    }
    return { id: 'gateway', title: 'Gateway overhead per tools/call', tables, ratios, data };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await procs.close();
  }
}

/**
 * Starts `xprotocol-adapter gateway -- node <server-memory>` on a free port, as a user would (its
 * rate limit raised, as every adapter of the bench has it), and connects a client with the bearer
 * token it prints once it serves.
 */
async function _startOneLiner(procs: Processes, memoryEnv: Record<string, string>): Promise<Client> {
  const port = await freePort();
  const child = procs.spawn(
    ADAPTER_BIN,
    [
      'gateway',
      '--port',
      String(port),
      '--rate-limit',
      '1000000',
      '--env',
      'MEMORY_FILE_PATH',
      '--',
      process.execPath,
      MEMORY_SERVER,
    ],
    { env: memoryEnv, profile: true },
  );
  const line = await waitForLine(
    child,
    'stderr',
    (text) => text.includes('Authorization: Bearer'),
    90_000,
    'adapter one-liner',
  );
  const token = /Authorization: Bearer (\S+)/.exec(line)?.[1];
  if (token === undefined) throw new Error(`adapter one-liner: expected its token on stderr, got ${line}`);
  return httpClient('adapter-one-liner', `http://127.0.0.1:${port}/mcp`, 30_000, {
    Authorization: `Bearer ${token}`,
  });
}

/**
 * The adapter's distance to the bare floor: its added latency over the floor's (both against the
 * direct baseline), and its throughput as a share of the floor's.
 */
function _floorRatios(
  ratios: Record<string, number>,
  prefix: string,
  adapter: PeerResult,
  floor: PeerResult,
  direct: PeerResult,
): void {
  ratios[`${prefix}.added:adapter/floor`] = overheadRatio(adapter, floor, direct);
  ratios[`${prefix}.throughput:adapter/floor`] = adapter.throughputRatio / floor.throughputRatio;
}
