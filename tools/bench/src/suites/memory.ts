/**
 * Suite 4, memory: one adapter aggregating 40 upstream catalogs (the recorded `tools/list`
 * answers of real MCP servers in testdata/mcp-servers, served by one stub upstream over
 * Streamable HTTP), against the same adapter with one catalog, and an idle Node process as the
 * floor. Resident set size at rest (every catalog listed on the face), under load (32 clients'
 * worth of concurrent `tools/call` and full `tools/list` pages for a few seconds), and idle
 * again after the load, read from /proc.
 *
 * `BENCH_MEMORY_COMPARE=<adapter bin.js of another build>[,<another>…]` measures each other build
 * the same way, interleaved with this one (1 catalog of each, then 40 of each), in the same run.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { gatewayYaml } from '../adapter-configs.js';
import { otherBuilds } from '../compare-builds.js';
import { httpClient } from '../mcp-peers.js';
import { ADAPTER_BIN, freePort, memoryOf, PEERS_DIR, Processes, waitForLine } from '../processes.js';
import { runBatch } from '../race.js';
import type { SuiteOptions, SuiteResult } from '../suite.js';

interface _Footprint {
  name: string;
  catalogs: number;
  tools: number;
  restMiB: number;
  loadMiB: number;
  peakMiB: number;
  /** After the load, once the process has been idle for {@link _IDLE_MS}. */
  idleMiB: number;
}

/**
 * How long the adapter is left idle after the load before the last reading: long enough for its
 * idle collector (a check every 5 s, after a whole idle interval) to have run.
 */
const _IDLE_MS = 12_000;

async function _listAll(client: Client): Promise<{ name: string; outputSchema?: unknown }[]> {
  const tools: { name: string; outputSchema?: unknown }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

async function _measure(
  name: string,
  child: ChildProcess,
  client: Client,
  catalogs: number,
  loadMs: number,
): Promise<_Footprint> {
  const listed = await _listAll(client);
  // Tools with an output schema would need structured content the stub does not make up.
  const tools = listed.filter((tool) => !('outputSchema' in tool) || tool.outputSchema === undefined);
  if (tools.length === 0)
    throw new Error(`${name}: expected tools without an outputSchema on the face, got none`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rest = memoryOf(child.pid!);
  // Load: concurrent calls spread over every listed tool, and full listings, for loadMs.
  // A refused call (AUTHORIZATION_INSUFFICIENT, a schema violation) still exercises the path;
  // a transport failure is counted and reported.
  let i = 0;
  let failed = 0;
  let firstFailure = '';
  const until = Date.now() + loadMs;
  const peer = {
    name,
    call: async () => {
      try {
        if (i % 16 === 0) await _listAll(client);
        const tool = tools[i++ % tools.length]!;
        await client.callTool({ name: tool.name, arguments: {} }, { timeout: 60_000 });
      } catch (error) {
        failed++;
        firstFailure ||= String((error as Error).cause ?? (error as Error).message);
      }
    },
  };
  while (Date.now() < until) await runBatch(peer, 256, 32);
  const load = memoryOf(child.pid!);
  await new Promise((resolve) => setTimeout(resolve, _IDLE_MS));
  const idle = memoryOf(child.pid!);
  if (failed > 0)
    console.error(`[bench] memory: ${name}: ${failed} calls failed under load, first: ${firstFailure}`);
  return {
    name,
    catalogs,
    tools: listed.length,
    restMiB: rest.rssMiB,
    loadMiB: load.rssMiB,
    peakMiB: load.peakMiB,
    idleMiB: idle.rssMiB,
  };
}

export async function memorySuite(options: SuiteOptions): Promise<SuiteResult> {
  const procs = new Processes();
  const clients: Client[] = [];
  try {
    const catalogs = 40;
    const loadMs = options.size === 'full' ? 10_000 : 3000;
    const upstream = procs.spawn(join(PEERS_DIR, 'catalog-upstream.mjs'), [String(catalogs)]);
    const base = (
      await waitForLine(upstream, 'stdout', (l) => l.startsWith('http://'), 30_000, 'upstream')
    ).trim();
    const { url: relayUrl } = await procs.relay({ durable: false });
    const key = await procs.keygen('memory.key');
    const idle = procs.spawn(join(PEERS_DIR, 'idle.mjs'), []);
    await waitForLine(idle, 'stdout', (l) => l === 'idle', 30_000, 'idle node');
    const idleMemory = memoryOf(idle.pid!);
    const rows: _Footprint[] = [
      {
        name: 'idle Node process (floor)',
        catalogs: 0,
        tools: 0,
        restMiB: idleMemory.rssMiB,
        loadMiB: idleMemory.rssMiB,
        peakMiB: idleMemory.peakMiB,
        idleMiB: idleMemory.rssMiB,
      },
    ];
    const builds = [
      { label: '', bin: ADAPTER_BIN },
      ...otherBuilds('BENCH_MEMORY_COMPARE').map((build) => ({ label: `, ${build.label}`, bin: build.bin })),
    ];
    // Interleaved: one catalog of each build, then 40 of each.
    const runs = [1, catalogs].flatMap((n) =>
      builds.map((build, b) => ({ ...build, n, id: `memory-${n}-${b}` })),
    );
    for (const { n, bin, label, id } of runs) {
      options.log(`memory: adapter with ${n} catalog(s)${label}`);
      const port = await freePort();
      const child = await procs.adapter(
        id,
        gatewayYaml({
          keyFile: key.path,
          relayUrl,
          port,
          sources: Array.from({ length: n }, (_, i) => ({
            name: `c${String(i).padStart(2, '0')}`,
            namespace: `com.bench.c${String(i).padStart(2, '0')}`,
            url: `${base}/c/${i}/mcp`,
          })),
          stateDatabase: `./${id}.db`,
        }),
        undefined,
        bin,
      );
      const client = await httpClient(id, `http://127.0.0.1:${port}/mcp`);
      clients.push(client);
      try {
        rows.push(
          await _measure(`adapter, ${n} catalog${n === 1 ? '' : 's'}${label}`, child, client, n, loadMs),
        );
      } catch (error) {
        throw new Error(
          `memory, ${n} catalogs: ${(error as Error).message}\nadapter stderr:\n${procs.stderrTail(child)}`,
          {
            cause: error,
          },
        );
      }
    }
    const one = rows[1]!;
    const forty = rows[1 + builds.length]!;
    const mib = (value: number) => value.toFixed(0);
    return {
      id: 'memory',
      title: `Memory of an adapter aggregating ${catalogs} catalogs`,
      tables: [
        {
          caption: `resident set size; load = ${loadMs / 1000} s of 32 concurrent tools/call with a full tools/list every 16 calls; idle = ${_IDLE_MS / 1000} s after the load`,
          header: [
            'process',
            'tools',
            'RSS at rest MiB',
            'RSS after load MiB',
            'peak RSS MiB',
            'RSS idle MiB',
            'ratio at rest',
          ],
          rows: rows.map((row) => [
            row.name,
            String(row.tools),
            mib(row.restMiB),
            mib(row.loadMiB),
            mib(row.peakMiB),
            mib(row.idleMiB),
            `${(row.restMiB / one.restMiB).toFixed(2)}×`,
          ]),
        },
      ],
      ratios: {
        'memory.rest.40/1': forty.restMiB / one.restMiB,
        'memory.peak.40/1': forty.peakMiB / one.peakMiB,
        'memory.idle.40/1': forty.idleMiB / one.idleMiB,
      },
      data: rows,
    };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await procs.close();
  }
}
