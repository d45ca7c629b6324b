// The MCP gateway with no relay, end to end, with the real bins: `xprotocol-adapter gateway -- <cmd>`
// serves server-everything (stdio) to an SDK client over Streamable HTTP with no config file, no
// relay and no key file; `--print-config` prints a file `start --config` runs unchanged; a file
// with only mcp_sources and mcp_server validates without a warning and runs with `start`; and a
// bad invocation is a usage error (exit 2) that says what was expected.
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, freePort, Processes } from './support/processes.js';

const procs = new Processes();
const clients: Client[] = [];
/** Where the children's `~` is: the state database lands here, and no key file may. */
const home = join(procs.dir, 'home');
const env = { HOME: home };
/** The line `gateway` prints once it serves, with the header clients send. */
const TOKEN_LINE = /Authorization: Bearer (\S+)/;

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await procs.close();
});

/** An SDK client of the face at `url`, sending `token` as a bearer token when given. */
async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'gateway-e2e', version: '0.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      ...(token && { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    }),
  );
  clients.push(client);
  return client;
}

/** The status of a bare `initialize` POST without credentials. */
function statusWithoutToken(url: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Lists, then calls `echo`: what every gateway here must do for its client. */
async function echoes(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('echo');
  const result = await client.callTool({ name: 'echo', arguments: { message: 'through the gateway' } });
  expect(result.content).toEqual([{ type: 'text', text: 'Echo: through the gateway' }]);
}

/** The JSON log lines with `"event":"mode"`. */
function modeLines(logs: readonly string[]): { mode: string; msg: string }[] {
  return logs.filter((line) => line.includes('"event":"mode"')).map((line) => JSON.parse(line));
}

describe('xprotocol-adapter gateway -- <command>', () => {
  it('serves a stdio server over Streamable HTTP with no file, relay or key: initialize, tools/list, tools/call', async () => {
    const port = await freePort();
    const { logs } = await procs.serving(
      ['gateway', '--port', String(port), '--', process.execPath, EVERYTHING_SERVER, 'stdio'],
      (line) => TOKEN_LINE.test(line),
      env,
    );
    const url = `http://127.0.0.1:${port}/mcp`;
    expect(logs).toContain(`xprotocol-adapter gateway: serving ${url}`);
    const token = TOKEN_LINE.exec(logs.find((line) => TOKEN_LINE.test(line)) ?? '')![1]!;
    // The token is printed once, and logged nowhere.
    expect(logs.filter((line) => line.includes(token))).toHaveLength(1);
    expect(modeLines(logs)).toEqual([expect.objectContaining({ mode: 'mcp_gateway' })]);
    expect(modeLines(logs)[0]!.msg).toContain(
      'no relay, so no XProtocol endpoint, no announce and no identity',
    );
    // Nothing to warn about: no relay, access or identity is missing from a gateway.
    expect(logs.filter((line) => line.includes('"level":40'))).toEqual([]);

    expect(await statusWithoutToken(url)).toBe(401);
    const client = await connect(url, token);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    await echoes(client);
    // No key file was made: only the state database (its tool pins) is under ~/.xprotocol.
    expect(readdirSync(join(home, '.xprotocol'))).toEqual(['state']);
    expect(readdirSync(join(home, '.xprotocol', 'state')).filter((f) => f.endsWith('.db'))).toEqual([
      expect.stringMatching(/^gateway-[0-9a-f]{16}\.db$/),
    ]);
  });

  it('--print-config prints the file `start --config` runs unchanged, with the token from XP_GATEWAY_TOKEN', async () => {
    const port = await freePort();
    const printed = await procs.cli(
      [
        'gateway',
        '--print-config',
        '--port',
        String(port),
        '--',
        process.execPath,
        EVERYTHING_SERVER,
        'stdio',
      ],
      env,
    );
    expect(printed.stderr).toBe('');
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('token_env: XP_GATEWAY_TOKEN');
    const file = procs.file('printed.yml', printed.stdout);
    const token = 'a-token-of-my-own-0123456789';
    const { logs } = await procs.adapter(file, { ...env, XP_GATEWAY_TOKEN: token });
    expect(modeLines(logs)).toEqual([expect.objectContaining({ mode: 'mcp_gateway' })]);
    const url = `http://127.0.0.1:${port}/mcp`;
    expect(await statusWithoutToken(url)).toBe(401);
    await echoes(await connect(url, token));
    // Same upstream, same name: the file finds the one-liner's state database (and its tool pins).
    expect(readdirSync(join(home, '.xprotocol', 'state')).filter((f) => f.endsWith('.db'))).toHaveLength(1);
  });
});

describe('a relay-less gateway file (mcp_sources and mcp_server only)', () => {
  it('validates without a warning and runs with `start`: no relay, no identity, no access warning', async () => {
    const port = await freePort();
    const file = procs.file(
      'gateway.yml',
      `mcp_sources:
  - name: everything
    transport: stdio
    command: ["${process.execPath}", "${EVERYTHING_SERVER}", "stdio"]
    xprotocol_namespace: local.everything
mcp_server:
  transport: streamable_http
  port: ${port}
state_database: ./gateway-file.db
`,
    );
    const validated = await procs.cli(['validate', '--config', file], env);
    expect(validated.stderr).toBe(
      `${file}: valid, a pure MCP gateway (1 mcp_sources, 0 xprotocol_sources)\n`,
    );
    expect(validated.code).toBe(0);
    const { logs } = await procs.adapter(file, env);
    expect(modeLines(logs)).toHaveLength(1);
    expect(logs.filter((line) => line.includes('"level":40'))).toEqual([]);
    const ready = JSON.parse(logs.find((line) => line.includes('"event":"ready"'))!);
    expect(ready).toMatchObject({ relays: [], relays_connected: [] });
    expect(ready.key).toBeUndefined();
    await echoes(await connect(`http://127.0.0.1:${port}/mcp`));
    expect(existsSync(join(home, '.xprotocol', 'adapter.key'))).toBe(false);
  });
});

describe('a bad gateway invocation is a usage error', () => {
  it.each([
    [
      [],
      'expected an MCP server to serve: -- <command> [args…], --stdio "<command line>" or --url <http(s) URL>',
    ],
    [
      ['--url', 'ftp://files.example.com/mcp'],
      '--url "ftp://files.example.com/mcp": expected an http:// or https:// URL',
    ],
    [
      ['--stdio', 'server | tee log'],
      '--stdio "server | tee log": cannot split the command: contains the shell operator "|"',
    ],
    [
      ['--port', '70000', '--', 'server'],
      "option '-p, --port <port>' argument '70000' is invalid. expected a port from 1 to 65535",
    ],
    [
      ['--env', 'NOT_SET_ANYWHERE_42', '--', 'server'],
      '--env NOT_SET_ANYWHERE_42: the variable is not set in this environment',
    ],
    [
      ['--token-env', 'NOT_SET_ANYWHERE_42', '--', 'server'],
      '--token-env NOT_SET_ANYWHERE_42: the variable is not set or empty: it must hold the token clients send',
    ],
    [['npx', '-y', 'some-server'], "put the server's command after --"],
  ])('gateway %j', async (args, message) => {
    const { code, stdout, stderr } = await procs.cli(['gateway', ...args], env);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });
});
