// The first errors a user meets, through the built bin (real processes): `start` that cannot start
// exits 1 at once with nothing left running; `call` against a dead relay fails fast and names it;
// `start` with a dead relay says the announce is pending, then that a relay accepted it; a stdio
// command that does not exist is named and not retried; one warning per retry, with its delay and
// the attempt it leads to; a command that exits before the MCP handshake shows its last stderr
// lines in the first warning (never the values of its env), and npm's "not in this registry" stops
// the retries.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ADAPTER_BIN, FS_SERVER, freePort, Processes } from './support/processes.js';

const procs = new Processes();
afterAll(() => procs.close());

const KEY_A = `ed25519:${'a'.repeat(64)}`;

/** A config document; `extra` is appended verbatim. */
function config(name: string, keyFile: string, relay: string, extra = ''): string {
  return procs.file(
    name,
    `identity:
  key_file: ${keyFile}
relay:
  urls: [${relay}]
  reconnect_interval_seconds: 1
access:
  default: deny
${extra}`,
  );
}

/** Command lines of live processes that contain `marker` (read from /proc; Linux). */
function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (args.includes(marker) && !args.includes('vitest')) found.push(`${pid}: ${args}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function listen(port = 0): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer().listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Starts `xprotocol-adapter start` and collects its stderr lines. */
function startAdapter(configPath: string): { lines: string[]; exited: Promise<number | null>; kill(): void } {
  const child = spawn(process.execPath, [ADAPTER_BIN, 'start', '--config', configPath], {
    cwd: procs.dir,
    env: { ...process.env, HOME: join(procs.dir, 'home') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  procs.children.push(child);
  const lines: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { lines, exited, kill: () => child.kill('SIGTERM') };
}

async function until(
  what: string,
  condition: () => boolean,
  lines: string[],
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('start that cannot start exits 1 at once, with nothing left running', () => {
  it('a corrupt key file', async () => {
    const key = procs.file('corrupt.key', 'garbage\n');
    chmodSync(key, 0o600);
    const { code, stderr, stdout } = await procs.cli([
      'start',
      '--config',
      config('corrupt.yml', key, 'ws://127.0.0.1:9'),
    ]);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/corrupt\.key: expected JSON, got text that does not parse/);
    expect(stdout).toBe('');
  }, 60_000);

  it('a key file with mode 0644', async () => {
    const { path } = await procs.keygen('open.key');
    chmodSync(path, 0o644);
    const { code, stderr } = await procs.cli([
      'start',
      '--config',
      config('open.yml', path, 'ws://127.0.0.1:9'),
    ]);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/key file has mode 0644.*chmod 600/);
  }, 60_000);

  it('a key file whose folder cannot be created', async () => {
    const blocker = procs.file('not-a-folder', '');
    const { code, stderr } = await procs.cli([
      'start',
      '--config',
      config('blocked.yml', join(blocker, 'adapter.key'), 'ws://127.0.0.1:9'),
    ]);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/identity\.key_file .*not-a-folder\/adapter\.key: cannot create the key file/);
  }, 60_000);

  it('a taken discovery port: the wrapped server it already started is ended too', async () => {
    const taken = await listen();
    const port = (taken.address() as { port: number }).port;
    const marker = join(procs.dir, `served-${port}`);
    mkdirSync(marker);
    const { path } = await procs.keygen('port.key');
    const file = config(
      'port.yml',
      path,
      'ws://127.0.0.1:9',
      `mcp_sources:
  - name: fs
    transport: stdio
    command: ${process.execPath} ${FS_SERVER} ${marker}
    xprotocol_namespace: com.test.fs
discovery:
  well_known_port: ${port}
`,
    );
    try {
      const { code, stderr } = await procs.cli(['start', '--config', file]);
      expect(code, stderr).toBe(1);
      expect(stderr).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}.*EADDRINUSE`));
      expect(processesWith(marker)).toEqual([]);
    } finally {
      taken.close();
    }
  }, 90_000);
});

describe('relays that cannot be reached', () => {
  it('call fails fast with RELAY_UNREACHABLE naming the URL and the reason, not NOT_FOUND after its timeout', async () => {
    const { path } = await procs.keygen('caller.key');
    const port = await freePort();
    // The call's own timeout is longer than this test's: only failing fast can pass.
    const { code, stdout, stderr } = await procs.cli([
      'call',
      '--key',
      path,
      '--relay',
      `ws://127.0.0.1:${port}`,
      '--to',
      KEY_A,
      '--kind',
      'com.test.x',
      '--payload',
      '{}',
      '--timeout-ms',
      '600000',
    ]);
    expect(code, stderr).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        code: 'RELAY_UNREACHABLE',
        message: `cannot connect to the relay: ws://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
      },
    });
  }, 60_000);

  it('start with a dead relay says the announce is pending, keeps running, and logs when a relay accepts it', async () => {
    const { path } = await procs.keygen('pending.key');
    const port = await freePort();
    const adapter = startAdapter(config('pending.yml', path, `ws://127.0.0.1:${port}`));
    const { lines } = adapter;
    await until('ready', () => lines.some((l) => l.includes('"event":"ready"')), lines);
    await until(
      'the unreachable-relay warning',
      () => lines.some((l) => l.includes('no relay reachable yet')),
      lines,
    );
    const warning = lines.find((l) => l.includes('no relay reachable yet'))!;
    expect(warning).toContain(`ws://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`);
    // Each failed attempt says when the next one comes.
    expect(lines.find((l) => l.includes('cannot reach relay'))).toMatch(
      /"retryInSeconds":([\d.]+),"msg":"cannot reach relay [^"]+; retrying in \1 s"/,
    );
    expect(lines.some((l) => l.includes('announce queued'))).toBe(true);
    expect(lines.some((l) => /announce (published|accepted)/.test(l))).toBe(false);
    expect(JSON.parse(lines.find((l) => l.includes('"event":"ready"'))!).relays_connected).toEqual([]);

    await procs.relay(['--port', String(port)]);
    await until(
      'the announce to be accepted',
      () => lines.some((l) => l.includes('announce accepted by')),
      lines,
    );
    expect(lines.find((l) => l.includes('announce accepted by'))).toContain(`ws://127.0.0.1:${port}`);
    adapter.kill();
    expect(await adapter.exited).toBe(0);
  }, 120_000);
});

describe('MCP commands that cannot start', () => {
  const missing = 'xp-no-such-mcp-server-4d1c';
  const source = (command: string) => `mcp_sources:
  - name: s
    transport: stdio
    command: ${command}
    xprotocol_namespace: com.test.s
`;

  it('test-mcp names the command not found on PATH and promises no next attempt', async () => {
    const { path } = await procs.keygen('enoent.key');
    const file = config('enoent.yml', path, 'ws://127.0.0.1:9', source(missing));
    const { code, stdout, stderr } = await procs.cli(['test-mcp', '--config', file, '--source', 's']);
    expect(code, stderr).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`command not found on PATH: ${missing}`);
    expect(stderr).not.toMatch(/attempt|retry/i);
  }, 60_000);

  it('start reports the missing command once, does not retry it, and says why the source serves nothing', async () => {
    const { path } = await procs.keygen('enoent-start.key');
    const adapter = startAdapter(config('enoent-start.yml', path, 'ws://127.0.0.1:9', source(missing)));
    const { lines } = adapter;
    await until('ready', () => lines.some((l) => l.includes('"event":"ready"')), lines);
    // Past the first retry delays (1 s, 2 s) a retried source would have logged again.
    await new Promise((r) => setTimeout(r, 4000));
    const about = lines.filter((l) => l.includes(missing));
    expect(about.filter((l) => l.includes('cannot start'))).toHaveLength(1);
    expect(about.some((l) => /retrying in|next attempt/.test(l))).toBe(false);
    const ready = JSON.parse(lines.find((l) => l.includes('"event":"ready"'))!);
    expect(ready.sources).toEqual([
      { name: 's', connected: false, tools: 0, error: `s: command not found on PATH: ${missing}` },
    ]);
    expect(lines.some((l) => l.includes('serves no tools') && l.includes(missing))).toBe(true);
    adapter.kill();
    expect(await adapter.exited).toBe(0);
  }, 90_000);

  /** A stand-in for `npx -y <a misspelt package>`: npm's lines on stderr, then exit 1 (no network). */
  const npmLike = (code: string) =>
    procs.file(
      `npm-${code}.mjs`,
      `process.stderr.write([
  'npm error code ${code}',
  'npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-memroy - Not found',
  "npm error 404  '@modelcontextprotocol/server-memroy@*' is not in this registry.",
  'npm error token=' + process.env.XP_TEST_TOKEN,
  'npm error A complete log of this run can be found in: ~/.npm/_logs/debug-0.log',
].join('\\n') + '\\n');
process.exit(1);
`,
    );

  it('a command that exits before the handshake: its last stderr lines are in the first warning, its env values are not', async () => {
    const { path } = await procs.keygen('stderr.key');
    const script = npmLike('ECONNRESET');
    const adapter = startAdapter(
      config(
        'stderr.yml',
        path,
        'ws://127.0.0.1:9',
        `${source(`${process.execPath} ${script}`)}    env:
      XP_TEST_TOKEN: s3cret-token-value
`,
      ),
    );
    const { lines } = adapter;
    const warnings = () => lines.filter((l) => l.includes('cannot reach MCP source'));
    await until('the first warning', () => warnings().length >= 1, lines);
    const first = JSON.parse(warnings()[0]!) as { msg: string; level: number };
    expect(first.level).toBe(40);
    expect(first.msg).toContain('exited with exit code 1 before the MCP handshake');
    expect(first.msg).toContain(
      "npm error 404  '@modelcontextprotocol/server-memroy@*' is not in this registry.",
    );
    expect(first.msg).toContain('npm error A complete log of this run can be found in');
    expect(first.msg).toContain('npm error token=[redacted]');
    // The first line says what happened and when the next try comes; the stderr lines follow.
    expect(first.msg.split('\n')[0]).toMatch(
      /^cannot reach MCP source "s": cannot connect to the command ".*node": it exited with exit code 1 before the MCP handshake; retrying in 1 s \(attempt 2\)$/,
    );
    expect(first.msg.split('\n').slice(1)).toEqual([
      '  stderr: npm error code ECONNRESET',
      '  stderr: npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-memroy - Not found',
      "  stderr: npm error 404  '@modelcontextprotocol/server-memroy@*' is not in this registry.",
      '  stderr: npm error token=[redacted]',
      '  stderr: npm error A complete log of this run can be found in: ~/.npm/_logs/debug-0.log',
    ]);
    expect(lines.join('\n')).not.toContain('s3cret-token-value');
    adapter.kill();
    expect(await adapter.exited).toBe(0);
  }, 90_000);

  it('npm saying the package is not in the registry (E404) is reported once with its lines and not retried', async () => {
    const { path } = await procs.keygen('e404.key');
    const script = npmLike('E404');
    const adapter = startAdapter(
      config('e404.yml', path, 'ws://127.0.0.1:9', source(`${process.execPath} ${script}`)),
    );
    const { lines } = adapter;
    await until('ready', () => lines.some((l) => l.includes('"event":"ready"')), lines);
    await until('the error', () => lines.some((l) => l.includes('cannot start')), lines);
    // Past the first retry delays (1 s, 2 s) a retried source would have logged again.
    await new Promise((r) => setTimeout(r, 4000));
    const about = lines.filter((l) => l.includes('"source":"s"') && l.includes('server-memroy'));
    expect(about).toHaveLength(1);
    const error = JSON.parse(about[0]!) as { msg: string; level: number };
    expect(error.level).toBe(50);
    expect(error.msg).toContain('npm error code E404');
    expect(error.msg).toContain('not in the npm registry');
    expect(error.msg).toContain('not retrying');
    expect(lines.some((l) => /retrying in|restarting it in/.test(l) && l.includes('"source":"s"'))).toBe(
      false,
    );
    adapter.kill();
    expect(await adapter.exited).toBe(0);
  }, 90_000);

  it('a server that exits at once is retried with one warning per attempt giving the real delay', async () => {
    const { path } = await procs.keygen('exits.key');
    const script = procs.file('exits.mjs', 'process.exit(3)\n');
    const adapter = startAdapter(
      config('exits.yml', path, 'ws://127.0.0.1:9', source(`${process.execPath} ${script}`)),
    );
    const { lines } = adapter;
    const retries = () => lines.filter((l) => l.includes('cannot reach MCP source'));
    await until('two retries', () => retries().length >= 2, lines);
    const [first, second] = retries().map((l) => JSON.parse(l) as { retryInSeconds: number; msg: string });
    expect(first!.retryInSeconds).toBe(1);
    expect(first!.msg).toMatch(/retrying in 1 s \(attempt 2\)$/);
    expect(second!.retryInSeconds).toBe(2);
    expect(second!.msg).toMatch(/retrying in 2 s \(attempt 3\)$/);
    // The exit is named, and the child wrote nothing on stderr.
    expect(first!.msg).toContain(
      'exited with exit code 3 before the MCP handshake, writing nothing on stderr',
    );
    // One loop retries a start that failed: the supervisor does not restart it as well.
    expect(lines.some((l) => l.includes('restarting it in'))).toBe(false);
    // No second warning per attempt (the session itself no longer announces its own delay).
    expect(lines.some((l) => l.includes('next attempt'))).toBe(false);
    adapter.kill();
    expect(await adapter.exited).toBe(0);
  }, 90_000);
});
