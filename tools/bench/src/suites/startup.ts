/**
 * Suite 5, startup, cold (a new process each time): a bare Node process printing one line
 * (baseline), `xprotocol-adapter start` until it logs `ready` (server-memory over stdio as its
 * source, a relay already running), and `xprotocol-devserver --demo` until its answer is on
 * stdout (relay, adapter, server-filesystem and one signed, encrypted call) and until it exits.
 * Interleaved rounds, one start of each per round.
 * @module
 */
import { join } from 'node:path';
import { endpointYaml } from '../adapter-configs.js';
import {
  ADAPTER_BIN,
  DEVSERVER_BIN,
  MEMORY_SERVER,
  PEERS_DIR,
  Processes,
  waitForLine,
} from '../processes.js';
import { median, quantile } from '../stats.js';
import type { SuiteOptions, SuiteResult } from '../suite.js';

interface _Start {
  readonly name: string;
  /** Starts one process; resolves with ms to ready and ms to exit (when it exits by itself). */
  readonly run: () => Promise<{ readyMs: number; exitMs?: number }>;
}

export async function startupSuite(options: SuiteOptions): Promise<SuiteResult> {
  const procs = new Processes();
  try {
    const rounds = options.size === 'full' ? 8 : 3;
    const { url: relayUrl } = await procs.relay({ durable: false });
    const key = await procs.keygen('startup.key');
    const config = procs.file(
      'startup.yml',
      endpointYaml({
        keyFile: key.path,
        relayUrl,
        sources: [
          {
            name: 'memory',
            namespace: 'com.bench.memory',
            stdio: {
              command: [process.execPath, MEMORY_SERVER],
              env: { MEMORY_FILE_PATH: join(procs.dir, 'memory.jsonl') },
            },
          },
        ],
        grants: [{ key: key.ed25519, capabilities: ['com.bench.memory.*'] }],
        stateDatabase: './startup.db',
      }),
    );
    const timed = async (
      script: string,
      args: string[],
      stream: 'stdout' | 'stderr',
      ready: (line: string) => boolean,
      what: string,
      stop: boolean,
    ) => {
      const started = performance.now();
      const child = procs.spawn(script, args);
      const exited = new Promise<number>((resolve) =>
        child.once('exit', () => resolve(performance.now() - started)),
      );
      await waitForLine(child, stream, ready, 60_000, what);
      const readyMs = performance.now() - started;
      if (stop) {
        child.kill('SIGTERM');
        await exited;
        return { readyMs };
      }
      return { readyMs, exitMs: await exited };
    };
    const starts: _Start[] = [
      {
        name: 'bare Node process (baseline)',
        run: () => timed(join(PEERS_DIR, 'idle.mjs'), [], 'stdout', (l) => l === 'idle', 'idle', true),
      },
      {
        name: 'adapter ready (one stdio source)',
        run: () =>
          timed(
            ADAPTER_BIN,
            ['start', '--config', config],
            'stderr',
            (l) => l.includes('"event":"ready"'),
            'adapter',
            true,
          ),
      },
      {
        name: 'devserver --demo answered',
        run: () =>
          timed(DEVSERVER_BIN, ['--demo'], 'stdout', (l) => l.startsWith('{'), 'devserver --demo', false),
      },
    ];
    const samples = starts.map(() => [] as { readyMs: number; exitMs?: number }[]);
    for (let round = 0; round < rounds; round++) {
      options.log(`startup: round ${round + 1} of ${rounds}`);
      for (let k = 0; k < starts.length; k++) {
        const index = (k + round) % starts.length;
        samples[index]!.push(await starts[index]!.run());
      }
    }
    const base = samples[0]!.map((s) => s.readyMs);
    const rows = starts.map((start, index) => {
      const ready = samples[index]!.map((s) => s.readyMs);
      const exit = samples[index]!.flatMap((s) => (s.exitMs === undefined ? [] : [s.exitMs]));
      const ratio = median(ready.map((ms, round) => ms / base[round]!));
      return {
        name: start.name,
        readyMs: median(ready),
        p99Ms: quantile(ready, 0.99),
        exitMs: exit.length ? median(exit) : undefined,
        ratio,
      };
    });
    return {
      id: 'startup',
      title: 'Startup, cold',
      tables: [
        {
          caption: `a new process each time, ${rounds} interleaved rounds`,
          header: ['process', 'ready ms (median)', 'slowest ms', 'exit ms (median)', 'ratio'],
          rows: rows.map((row) => [
            row.name,
            row.readyMs.toFixed(0),
            row.p99Ms.toFixed(0),
            row.exitMs === undefined ? '—' : row.exitMs.toFixed(0),
            `${row.ratio.toFixed(2)}×`,
          ]),
        },
      ],
      ratios: { 'startup.adapter/node': rows[1]!.ratio, 'startup.demo/node': rows[2]!.ratio },
      data: rows,
    };
  } finally {
    await procs.close();
  }
}
