// Faults through the real path: the relay dies while a call runs upstream. The caller gets its
// answer after the relay returns (or a clear TIMEOUT), the upstream tool runs exactly once, and no
// answer is lost while its event is unexpired.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, freePort, Processes } from './support/processes.js';

let procs: Processes;
let pool: RelayPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  await procs.close();
});

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

/** Relay with a database on a fixed port, adapter B wrapping server-everything, and a caller. */
async function setUp() {
  procs = new Processes();
  const port = await freePort();
  const db = join(procs.dir, 'relay.db');
  const relayArgs = ['--port', String(port), '--db', db];
  let relay = await procs.relay(relayArgs);
  const b = await procs.keygen('b.key');
  const client = await procs.keygen('client.key');
  const config = procs.file(
    'b.yml',
    `identity:
  key_file: ./b.key
relay:
  urls: [${relay.url}]
  reconnect_interval_seconds: 1
mcp_sources:
  - name: every
    transport: stdio
    command: "'${process.execPath}' '${EVERYTHING_SERVER}' stdio"
    xprotocol_namespace: com.test.every
access:
  grants:
    - key: ${client.ed25519}
      capabilities: ["com.test.every.*"]
state_database: ./b-state.db
logging:
  level: debug
  format: json
`,
  );
  let adapter = await procs.adapter(config);
  const identity = await readKeyFile(client.path, { signatures: nodeSignatures, cipher: nodeCipher });
  pool = await RelayPool.open({ urls: [relay.url], reconnect: { initialMs: 200, maxMs: 500 } });
  const caller = new XpCaller({ identity, pool, signatures: nodeSignatures, cipher: nodeCipher });
  const target = await caller.resolve(b.ed25519, 10_000);
  // Counted over every run of the adapter process (logs of earlier runs are kept).
  const pastLogs: string[] = [];
  const upstreamCalls = () =>
    [...pastLogs, ...adapter.logs].filter((line) => line.includes('"msg":"calling upstream tool"')).length;
  return {
    caller,
    target,
    upstreamCalls,
    adapterLogs: adapter.logs,
    killRelay: async () => {
      relay.child.kill('SIGKILL');
      await exited(relay.child);
    },
    restartRelay: async () => {
      relay = await procs.relay(relayArgs);
    },
    restartAdapter: async () => {
      adapter.child.kill('SIGTERM');
      await exited(adapter.child);
      pastLogs.push(...adapter.logs);
      adapter = await procs.adapter(config);
      return adapter.logs;
    },
  };
}

describe('faults: the relay dies mid-call', () => {
  it('the call completes after the relay returns; the tool ran once; the answer was not lost', async () => {
    const s = await setUp();
    const pending = s.caller.call({
      to: s.target.keys,
      kind: 'com.test.every.trigger-long-running-operation',
      payload: { duration: 3, steps: 3 },
      timeoutMs: 30_000,
    });
    await until(() => s.upstreamCalls() === 1, 15_000, 'the upstream call to start');
    await s.killRelay();
    await new Promise((r) => setTimeout(r, 1500));
    await s.restartRelay();
    const outcome = await pending;
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(JSON.stringify(outcome.payload)).toMatch(/Long running operation completed/);
    // After the restart the relay re-delivers the stored request to B: it must not run again.
    await new Promise((r) => setTimeout(r, 1000));
    expect(s.upstreamCalls()).toBe(1);
  });

  it('a relay that stays down past the timeout gives the caller a clear TIMEOUT; the tool still ran once', async () => {
    const s = await setUp();
    const started = Date.now();
    const pending = s.caller.call({
      to: s.target.keys,
      kind: 'com.test.every.trigger-long-running-operation',
      // Longer than the caller's timeout, so no answer can beat the relay's death however slow
      // this machine is to notice that the call started.
      payload: { duration: 8, steps: 1 },
      timeoutMs: 4000,
    });
    await until(() => s.upstreamCalls() === 1, 15_000, 'the upstream call to start');
    await s.killRelay();
    const outcome = await pending;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('TIMEOUT');
      expect(outcome.error.message).toMatch(
        /no answer to com\.test\.every\.trigger-long-running-operation within 4000 ms/,
      );
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    await s.restartRelay();
    await new Promise((r) => setTimeout(r, 1500));
    expect(s.upstreamCalls()).toBe(1);
  });
});

describe('faults: the adapter restarts', () => {
  it('does not run a request again when the relay re-delivers it after the restart', async () => {
    const s = await setUp();
    const first = await s.caller.call({
      to: s.target.keys,
      kind: 'com.test.every.echo',
      payload: { message: 'once' },
      timeoutMs: 15_000,
    });
    expect(first.ok).toBe(true);
    expect(s.upstreamCalls()).toBe(1);
    const requestId = first.answer?.tags.find((t) => t[0] === 'e')?.[1];
    expect(requestId).toMatch(/^[0-9a-f]{64}$/);
    const logs = await s.restartAdapter();
    // The new process resubscribes from (now − retention): the stored request comes back and is dropped.
    const second = await s.caller.call({
      to: s.target.keys,
      kind: 'com.test.every.echo',
      payload: { message: 'twice' },
      timeoutMs: 15_000,
    });
    expect(second.ok).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(s.upstreamCalls()).toBe(2);
    // The stored request did come back to the new process, and was dropped as a duplicate.
    expect(logs.some((line) => line.includes(`duplicate of ${requestId}`))).toBe(true);
  });
});
