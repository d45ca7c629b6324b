// `xprotocol-devserver --config FILE`: the config's relay replaced by the local one, the dev key
// used, hot reload on change (a bad edit keeps the running adapter), and a clean stop on SIGINT;
// a file without identity and relay (the devserver supplies both) serves and reloads too.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _quoteCommandLine } from '../src/_command-quote.js';
import { type Child, FS_SERVER, Sandbox } from './support/children.js';

const sandbox = new Sandbox();
let dev: Child;
let configPath: string;

const config = (allow: string[]) => `identity:
  key_file: ./ignored.key
relay:
  urls: [ws://relay.example.invalid:9]
mcp_sources:
  - name: fs
    transport: stdio
    command: ${_quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir])}
    xprotocol_namespace: com.test.fs
    tool_allowlist: [${allow.join(', ')}]
access:
  default: deny
state_database: ./state.db
logging:
  level: warn
  format: text
`;

beforeAll(async () => {
  configPath = sandbox.file('devserver.yml', config(['read_text_file']));
  dev = sandbox.spawn([
    '--config',
    configPath,
    '--relay-port',
    '0',
    '--db',
    sandbox.path('events.db'),
    '--key',
    sandbox.path('dev.key'),
  ]);
  await dev.waitForStderr(/"mcpServers"/);
}, 60_000);
afterAll(() => sandbox.close());

describe('xprotocol-devserver --config', () => {
  it('runs the adapter on the local relay with the dev key, and warns as the config layer does', () => {
    expect(dev.stderr).toMatch(/✓ Local relay: ws:\/\/127\.0\.0\.1:\d+ \(events in .*events\.db\)/);
    expect(dev.stderr).toContain(`(${sandbox.path('dev.key')})`);
    expect(dev.stderr).toContain('✓ Wrapped MCP server: com.test.fs (1 tool) [fs]');
    expect(dev.stderr).toMatch(/warning: .*devserver\.yml:\d+:\d+ access: no access\.grants/);
    expect(dev.stderr).not.toContain('relay.example.invalid');
    expect(dev.stderr).toMatch(/"args":\[".*\/dist\/bin\.js","--mcp-proxy","--key",".*dev\.key"\]/);
  });

  it('reloads on change; a broken edit keeps the running adapter', async () => {
    writeFileSync(configPath, config(['read_text_file', 'list_directory']));
    await dev.waitForStderr(/↻ .*devserver\.yml changed: adapter restarted \(2 tools\)/);
    writeFileSync(configPath, `${config(['read_text_file'])}bogus_key: 1\n`);
    await dev.waitForStderr(/the running adapter is kept; fix the file to reload/);
    expect(dev.stderr).toMatch(/devserver\.yml:\d+:1 bogus_key/);
  });

  it('stops cleanly on SIGINT with exit 0', async () => {
    dev.process.kill('SIGINT');
    const { code } = await dev.exited;
    expect(code, dev.stderr).toBe(0);
    expect(dev.stderr).toMatch(/SIGINT: stopping\nstopped\n$/);
  });
});

describe('xprotocol-devserver --config with a file that has no identity and no relay', () => {
  it('serves it with the dev key on the local relay, and reloads an edit of it', async () => {
    const bare = (allow: string[]) =>
      config(allow).replace(
        'identity:\n  key_file: ./ignored.key\nrelay:\n  urls: [ws://relay.example.invalid:9]\n',
        '',
      );
    expect(bare(['read_text_file'])).not.toMatch(/identity|relay/);
    const path = sandbox.file('bare.yml', bare(['read_text_file']));
    const child = sandbox.spawn([
      '--config',
      path,
      '--relay-port',
      '0',
      '--db',
      sandbox.path('bare-events.db'),
      '--key',
      sandbox.path('bare.key'),
      '--no-console',
    ]);
    await child.waitForStderr(/"mcpServers"/);
    expect(child.stderr).toContain(`(${sandbox.path('bare.key')})`);
    expect(child.stderr).toContain('✓ Wrapped MCP server: com.test.fs (1 tool) [fs]');
    expect(child.stderr).not.toMatch(/identity: missing|relay: missing/);
    writeFileSync(path, bare(['read_text_file', 'list_directory']));
    await child.waitForStderr(/↻ .*bare\.yml changed: adapter restarted \(2 tools\)/);
    child.process.kill('SIGINT');
    expect((await child.exited).code, child.stderr).toBe(0);
  }, 90_000);
});
