// `xprotocol-adapter status` against a real adapter (docs/cli.md, "status"): the built bin wraps
// the conformance fixture over stdio on a real relay; one call is served and one refused through
// `xprotocol-adapter call`; `status` then reads what the running adapter wrote into its state
// database — its key, the source connected with the tool count its ready line gave, the relay
// connected, 1 served and 1 refused with the code — never a value of the source's env. Once the
// adapter is stopped, `status` says it is not running and exits 3.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, wrapperConfig } from './support/adapter-configs.js';
import { Processes } from './support/processes.js';

const procs = new Processes();
afterAll(() => procs.close());

/** A value in the source's env: status must never show it. */
const SECRET = 'status-e2e-secret-7c1f9a';

async function until<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

describe('xprotocol-adapter status', () => {
  it('shows what the running adapter reports, then that it is not running once stopped', async () => {
    const { url: relayUrl } = await procs.relay();
    const [adapterKey, client, stranger] = await Promise.all([
      procs.keygen('adapter.key'),
      procs.keygen('client.key'),
      procs.keygen('stranger.key'),
    ]);
    const config = procs.file(
      'adapter.yml',
      wrapperConfig({
        keyFile: './adapter.key',
        relayUrl,
        source: {
          name: 'fixture',
          namespace: 'com.test.status',
          body: `${conformanceStdioBody()}
    env:
      STATUS_TEST_TOKEN: ${SECRET}`,
        },
        grantTo: client.ed25519,
        stateDatabase: './adapter-state.db',
      }),
    );
    const { child, logs } = await procs.adapter(config);
    const ready = JSON.parse(logs.find((line) => line.includes('"event":"ready"'))!) as {
      sources: { name: string; tools: number }[];
    };
    const tools = ready.sources[0]!.tools;
    expect(tools).toBeGreaterThan(0);

    const call = (key: string) =>
      procs.cli([
        'call',
        ...['--key', key, '--relay', relayUrl, '--to', adapterKey.ed25519],
        ...['--kind', 'com.test.status.test_simple_text', '--payload', '{}', '--timeout-ms', '15000'],
      ]);
    const served = await call(client.path);
    expect(served.code, served.stdout + served.stderr).toBe(0);
    const refused = await call(stranger.path);
    expect(refused.code, refused.stdout).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('AUTHORIZATION_INSUFFICIENT');

    // The adapter counts a call once its answer is on the way: the snapshot follows shortly.
    const status = await until('a snapshot with both calls', async () => {
      const { code, stdout, stderr } = await procs.cli(['status', '--config', config, '--json']);
      if (code !== 0) throw new Error(`status exited ${code}: ${stdout}${stderr}`);
      const parsed = JSON.parse(stdout);
      return code === 0 && parsed.calls.served + parsed.calls.refused === 2 ? parsed : undefined;
    });
    expect(status).toMatchObject({
      running: true,
      pid: child.pid,
      key: adapterKey.ed25519,
      chain: null,
      sources: [{ name: 'fixture', transport: 'stdio', connected: true, tools, last_error: null }],
      relays: [{ url: relayUrl, connected: true, last_error: null }],
      calls: { served: 1, refused: 1, refused_by_code: { AUTHORIZATION_INSUFFICIENT: 1 } },
    });
    expect(status.calls.last_refused).toEqual([
      expect.objectContaining({
        kind: 'com.test.status.test_simple_text',
        code: 'AUTHORIZATION_INSUFFICIENT',
      }),
    ]);

    const text = await procs.cli(['status', '--config', config]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^running: pid ${child.pid},`));
    expect(text.stdout).toContain(`key: ${adapterKey.ed25519}`);
    expect(text.stdout).toContain('chain: no chain');
    expect(text.stdout).toMatch(new RegExp(`fixture \\(stdio\\): connected, ${tools} tools`));
    expect(text.stdout).toContain(`${relayUrl}: connected`);
    expect(text.stdout).toMatch(/calls since start: 1 served, 1 refused \(AUTHORIZATION_INSUFFICIENT 1\)/);
    for (const output of [text.stdout, JSON.stringify(status)]) expect(output).not.toContain(SECRET);

    child.kill('SIGTERM');
    await exited(child);
    const after = await procs.cli(['status', '--config', config]);
    expect(after.code, after.stdout + after.stderr).toBe(3);
    expect(after.stdout).toMatch(new RegExp(`^not running \\(stopped .* ago, pid ${child.pid}\\)`));
    const afterJson = await procs.cli(['status', '--config', config, '--json']);
    expect(afterJson.code).toBe(3);
    expect(JSON.parse(afterJson.stdout)).toMatchObject({ running: false, reason: 'stopped', pid: child.pid });
  });

  it('finds the state database where start would, and creates nothing when no adapter has run', async () => {
    const home = join(procs.dir, 'home');
    mkdirSync(home);
    const env = { HOME: home };
    const config = procs.file(
      'default-path.yml',
      `identity:
  key_file: ./default-path.key
relay:
  urls: [ws://127.0.0.1:9]
`,
    );
    const noKey = await procs.cli(['status', '--config', config], env);
    expect(noKey.code, noKey.stderr).toBe(3);
    expect(noKey.stdout).toMatch(
      /^not running \(no adapter has run with this config: no key file at .*default-path\.key\)/,
    );
    expect(existsSync(join(procs.dir, 'default-path.key'))).toBe(false);

    const key = await procs.keygen('default-path.key');
    const hex = key.ed25519.slice('ed25519:'.length);
    const noDatabase = await procs.cli(['status', '--config', config, '--json'], env);
    expect(noDatabase.code, noDatabase.stderr).toBe(3);
    const database = join(home, '.xprotocol', 'state', `${hex}.db`);
    expect(JSON.parse(noDatabase.stdout)).toEqual({
      running: false,
      reason: 'never_ran',
      why: `no state database at ${database}`,
      state_database: database,
    });
    expect(readdirSync(home)).toEqual([]);

    const inMemory = procs.file(
      'in-memory.yml',
      `identity:
  key_file: ./default-path.key
relay:
  urls: [ws://127.0.0.1:9]
state_database: ":memory:"
`,
    );
    const memory = await procs.cli(['status', '--config', inMemory], env);
    expect(memory.code).toBe(1);
    expect(memory.stderr).toMatch(/state_database is ":memory:": .*keeps no status another process can read/);
  });
});
