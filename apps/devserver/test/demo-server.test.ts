// The first ten minutes: `xprotocol-devserver` with no mode flag serves the demo server
// (server-filesystem over a temporary folder) and the web console until stopped, and prints what
// to try and the MCP client lines. The MCP Inspector's CLI (@modelcontextprotocol/inspector-cli,
// pinned) lists and calls the wrapped tools through the banner's --mcp-proxy command line.
// `--relay-port 0` only keeps this test off the default port other runs may hold.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitCommandLine } from '@xprotocol/mcp-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, Sandbox } from './support/children.js';
import { ConsoleClient } from './support/console-client.js';

const INSPECTOR = join(import.meta.dirname, '..', 'node_modules', '.bin', 'mcp-inspector-cli');
const DEMO_TEXT = 'Hello from XProtocol! Read by server-filesystem, sealed to you, through a local relay.\n';
const sandbox = new Sandbox();
let dev: Child;
let web: ConsoleClient;
let demoFile: string;
let bannerMs: number;

beforeAll(async () => {
  const started = performance.now();
  dev = sandbox.spawn(['--relay-port', '0']);
  await dev.waitForStderr(/"mcpServers"/);
  bannerMs = performance.now() - started;
  web = new ConsoleClient(dev);
  demoFile = dev.stderr.match(/Try a call → com\.demo\.fs\.read_text_file with path (\S+)/)![1]!;
}, 60_000);
afterAll(() => sandbox.close());

/** The banner's MCP Inspector line, as words. */
function inspectorLine(): string[] {
  const line = dev.stderr.match(/^ {2}MCP Inspector: {2}npx @modelcontextprotocol\/inspector (.*)$/m)![1]!;
  const split = splitCommandLine(line);
  if (!split.ok) throw new Error(`the banner's MCP Inspector line does not split: ${split.reason}`);
  return split.argv;
}

function inspect(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(INSPECTOR, ['--cli', ...inspectorLine(), ...args], {
    // inspector-cli 1.0.3 tests `existsSync('../package.json')` against the working folder but
    // imports it relative to its own module: run it where both name a package.json (this
    // package's test/ folder), else it fails to start. (Its v2 successor needs Node 22.)
    cwd: import.meta.dirname,
    encoding: 'utf8',
    timeout: 90_000,
    env: { PATH: process.env.PATH ?? '', HOME: sandbox.dir, NO_COLOR: '1' },
  });
}

describe('xprotocol-devserver with no mode flag', () => {
  it('serves the demo server and the console, and says what to try first', () => {
    console.log(`no-argument start: banner with the console URL after ${bannerMs.toFixed(0)} ms`);
    expect(dev.stderr).toMatch(/✓ Wrapped MCP server: com\.demo\.fs \(\d+ tools\) \[fs\]/);
    expect(dev.stderr).toMatch(/✓ Demo server: server-filesystem over \S+xprotocol-devserver-demo-\w+ /);
    expect(readFileSync(demoFile, 'utf8')).toBe(DEMO_TEXT);
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(dev.stderr).toMatch(/^ {2}Claude Code: {4}claude mcp add xprotocol -- \S+ \S+ --mcp-proxy$/m);
    expect(dev.stderr).toMatch(/^\{"mcpServers":\{"xprotocol":\{"command":/m);
    // Access denies by default; only the devserver's own clients are granted, so no warning.
    expect(dev.stderr, dev.stderr).not.toContain('warning:');
    expect(dev.stdout).toBe('');
  });

  it('the console reads the demo file; a key no grant names is refused', async () => {
    const call = (signer: string) =>
      web.json<{ ok: boolean; payload?: { content: { text: string }[] }; error?: { code: string } }>(
        '/api/call',
        { kind: 'com.demo.fs.read_text_file', payload: { path: demoFile }, signer },
      );
    expect((await call('dev')).payload?.content[0]?.text).toBe(DEMO_TEXT);
    expect((await call('stranger')).error?.code).toBe('AUTHORIZATION_INSUFFICIENT');
  });

  it('the MCP Inspector CLI lists and calls the tools through the --mcp-proxy line of the banner', () => {
    const listed = inspect(['--method', 'tools/list']);
    expect(listed.status, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain('read_text_file');
    const called = inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'read_text_file',
      '--tool-arg',
      `path=${demoFile}`,
    ]);
    expect(called.status, called.stderr).toBe(0);
    expect((JSON.parse(called.stdout) as { content: { text: string }[] }).content[0]!.text).toBe(DEMO_TEXT);
  }, 120_000);

  it('stops on SIGTERM with exit 0 and removes the demo folder', async () => {
    dev.process.kill('SIGTERM');
    const { code } = await dev.exited;
    expect(code, dev.stderr).toBe(0);
    expect(existsSync(demoFile)).toBe(false);
  });
});
