// The XProtocol round trip against its baseline, in one run: a direct MCP `tools/call` to the
// official filesystem server, versus the same call sealed, published through a real relay on
// loopback, verified and opened by the endpoint, run upstream, and answered back. Vitest prints
// the ratio; the median and p99 of each are printed after the run.
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Stack, startStack } from '../test/support/stack.js';

let stack: Stack;
let path: string;
const samples: Record<string, number[]> = { direct: [], relay: [] };

beforeAll(async () => {
  stack = await startStack({ requestsPerMinute: 1_000_000 });
  path = `${stack.dir}/hello.txt`;
});

afterAll(async () => {
  for (const [name, values] of Object.entries(samples)) {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    console.log(
      `${name.padEnd(7)} n=${sorted.length} median=${at(0.5).toFixed(2)} ms p99=${at(0.99).toFixed(2)} ms`,
    );
  }
  await stack.close();
});

async function timed(name: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  samples[name]!.push(performance.now() - started);
}

describe('tools/call read_text_file', () => {
  bench(
    'direct MCP call (baseline)',
    () => timed('direct', () => stack.upstream.callTool('read_text_file', { path }, { timeoutMs: 10_000 })),
    { time: 3000, warmupIterations: 5 },
  );
  bench(
    'XProtocol round trip through the relay',
    async () =>
      timed('relay', async () => {
        const outcome = await stack.caller.call({
          to: stack.adapter.keys,
          kind: 'com.test.fs.read_text_file',
          payload: { path },
          timeoutMs: 10_000,
        });
        if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
      }),
    { time: 3000, warmupIterations: 5 },
  );
});
