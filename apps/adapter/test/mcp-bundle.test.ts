// The MCP Bundle (docs/deploy.md, "MCP Bundle"), end to end: scripts/build-bundle.mjs packs the
// built adapter with a configuration whose stdio face lists an XProtocol endpoint; the bundle
// format's own tool (`mcpb`, @anthropic-ai/mcpb) unpacks it and validates its manifest; the
// entry point, started as the manifest's `mcp_config` says (its `${__dirname}` and `${user_config.*}`
// filled in as a desktop client fills them), answers an MCP client's `tools/list` over stdio with
// the endpoint's tools, and a call goes across XProtocol. The endpoint is an adapter wrapping the
// conformance fixture, on a relay on loopback.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, wrapperConfig } from './support/adapter-configs.js';
import { Processes } from './support/processes.js';

const ROOT = join(import.meta.dirname, '..');
const BUILD = join(ROOT, 'scripts', 'build-bundle.mjs');
const MCPB = join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const procs = new Processes();
let endpointKey: string;
let faceKey: string;
let relayUrl: string;

/** Runs a Node script to its end (a child of this test, which exits by itself). */
function run(
  script: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: procs.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  const face = await procs.keygen('face.key');
  const endpoint = await procs.keygen('endpoint.key');
  faceKey = face.path;
  endpointKey = endpoint.ed25519;
  await procs.adapter(
    procs.file(
      'endpoint.yml',
      wrapperConfig({
        keyFile: './endpoint.key',
        relayUrl,
        source: { name: 'fixture', body: conformanceStdioBody(), namespace: 'com.test.bundle' },
        grantTo: face.ed25519,
        stateDatabase: './endpoint-state.db',
      }),
    ),
  );
}, 120_000);
afterAll(() => procs.close());

describe('the MCP Bundle', () => {
  it('validates with mcpb and its entry point answers tools/list over stdio, as the manifest starts it', async () => {
    // The bundle's configuration: its key and state come from the manifest's user_config.
    const config = procs.file(
      'bundle.yml',
      `identity:
  key_file: \${XP_KEY_FILE:-~/.xprotocol/bundle.key}
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: fixture
    key: ${endpointKey}
    relay: ${relayUrl}
    mcp_tool_prefix: fixture_
mcp_server:
  transport: stdio
state_database: \${XP_STATE_DATABASE:-~/.xprotocol/state/bundle.db}
logging:
  level: warn
  format: json
`,
    );
    const output = join(procs.dir, 'adapter.mcpb');
    const built = await run(BUILD, ['--config', config, '--output', output]);
    expect(built.code, built.stderr).toBe(0);

    const unpacked = join(procs.dir, 'unpacked');
    const unpack = await run(MCPB, ['unpack', output, unpacked]);
    expect(unpack.code, unpack.stderr).toBe(0);
    const validated = await run(MCPB, ['validate', join(unpacked, 'manifest.json')]);
    expect(validated.stdout).toContain('Manifest schema validation passes');
    expect(validated.code).toBe(0);

    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as {
      version: string;
      server: {
        entry_point: string;
        mcp_config: { command: string; args: string[]; env: Record<string, string> };
      };
    };
    expect(manifest.version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(manifest.server.mcp_config.args[0]).toBe(`\${__dirname}/${manifest.server.entry_point}`);
    const userConfig: Record<string, string> = {
      key_file: faceKey,
      state_database: join(procs.dir, 'bundle-state.db'),
    };
    const fill = (text: string) =>
      text
        .replaceAll(`\${__dirname}`, unpacked)
        .replace(/\$\{user_config\.([a-z_]+)\}/g, (_, name: string) => userConfig[name] ?? '');
    expect(manifest.server.mcp_config.command).toBe('node');
    const mcp = new Client({ name: 'mcp-bundle-test', version: '0.0.0' }, { capabilities: {} });
    await mcp.connect(
      new StdioClientTransport({
        // `node` as the manifest says: the Node that runs this test.
        command: process.execPath,
        args: manifest.server.mcp_config.args.map(fill),
        env: {
          ...getDefaultEnvironment(),
          ...Object.fromEntries(Object.entries(manifest.server.mcp_config.env).map(([k, v]) => [k, fill(v)])),
        },
        // Not the repository: the bundle must find everything it needs inside itself.
        cwd: unpacked,
        stderr: 'pipe',
      }),
    );
    try {
      let names: string[] = [];
      // The face lists an endpoint's tools once its catalog arrived over the relay.
      for (let attempt = 0; attempt < 100 && !names.includes('fixture_test_simple_text'); attempt++) {
        names = (await mcp.listTools()).tools.map((t) => t.name);
        if (!names.includes('fixture_test_simple_text')) await new Promise((r) => setTimeout(r, 200));
      }
      expect(names).toContain('fixture_test_simple_text');
      const result = await mcp.callTool({ name: 'fixture_test_simple_text', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    } finally {
      await mcp.close();
    }
  });
});
