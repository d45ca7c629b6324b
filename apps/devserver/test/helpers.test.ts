// Command quoting (inverse of the adapter's splitter), paths, banner and the inline config.
import { splitCommandLine } from '@xprotocol/mcp-adapter';
import { describe, expect, it } from 'vitest';
import { _quoteCommandLine } from '../src/_command-quote.js';
import { formatBanner } from '../src/banner.js';
import { inlineConfig } from '../src/inline-config.js';
import { DEFAULT_RELAY_PORT, devServerPaths, localRelayUrl } from '../src/paths.js';
import { createStyle } from '../src/style.js';

describe('_quoteCommandLine', () => {
  const words: string[][] = [
    ['node', '/srv/server.js', '/tmp'],
    ['node', '/my data/server.js'],
    ["it's", 'a "quoted" word', 'back\\slash', '$HOME', '~/x', 'a|b;c&d', '(x)', '`id`'],
    ['', 'empty', ''],
    ['tab\there', 'new\nline', 'ünïcödé'],
  ];
  for (const argv of words) {
    it(`round-trips ${JSON.stringify(argv)} through splitCommandLine`, () => {
      expect(splitCommandLine(_quoteCommandLine(argv))).toEqual({ ok: true, argv });
    });
  }
  it('leaves plain words unquoted', () => {
    expect(_quoteCommandLine(['node', '/srv/a-b_c.js', 'x=1'])).toBe('node /srv/a-b_c.js x=1');
  });
});

describe('paths', () => {
  it('lives under ~/.xprotocol/devserver; the relay on 127.0.0.1:8765', () => {
    expect(devServerPaths('/home/ada')).toEqual({
      dir: '/home/ada/.xprotocol/devserver',
      events: '/home/ada/.xprotocol/devserver/events.db',
      adapterKey: '/home/ada/.xprotocol/devserver/adapter.key',
      proxyKey: '/home/ada/.xprotocol/devserver/proxy.key',
      proxyState: '/home/ada/.xprotocol/devserver/proxy-state.db',
      runningRelay: '/home/ada/.xprotocol/devserver/relay.json',
    });
    expect(localRelayUrl(DEFAULT_RELAY_PORT)).toBe('ws://127.0.0.1:8765');
  });
});

describe('formatBanner', () => {
  it('prints the startup lines and MCP client snippets that run this bin by absolute path', () => {
    const lines = formatBanner(
      {
        adapterKey: 'ed25519:abc',
        keyFile: '/k',
        relayUrl: 'ws://127.0.0.1:8765',
        database: '/e.db',
        sources: [
          { name: 'fs', namespace: 'com.demo.fs', connected: true, toolCount: 1, error: undefined },
          { name: 'gh', namespace: 'com.demo.gh', connected: false, toolCount: 0, error: 'spawn ENOENT' },
          {
            name: 'no',
            namespace: 'com.demo.no',
            connected: false,
            toolCount: 0,
            error: 'no: command not found on PATH: nope',
            retrying: false,
          },
        ],
        self: { command: '/usr/bin/node', args: ['/opt/my dev/dist/bin.js'] },
        proxyArgs: ['--mcp-proxy'],
      },
      createStyle(false),
    );
    expect(lines).toEqual([
      '✓ XProtocol DevServer started (dev only: not for production)',
      '✓ Adapter key: ed25519:abc (/k)',
      '✓ Local relay: ws://127.0.0.1:8765 (events in /e.db)',
      '✓ Wrapped MCP server: com.demo.fs (1 tool) [fs]',
      '✗ Wrapped MCP server: com.demo.gh not reachable yet: spawn ENOENT (retrying)',
      '✗ Wrapped MCP server: com.demo.no cannot start: no: command not found on PATH: nope (not retried: fix the command and restart)',
      '✓ Schema catalog: send xp.schema.catalog to the adapter key through ws://127.0.0.1:8765',
      '',
      'Use it from an MCP client (each runs --mcp-proxy, which reaches this devserver through its relay):',
      "  Claude Code:    claude mcp add xprotocol -- /usr/bin/node '/opt/my dev/dist/bin.js' --mcp-proxy",
      '  Claude Desktop: merge this into claude_desktop_config.json (Claude Code reads it from a project .mcp.json too):',
      '{"mcpServers":{"xprotocol":{"command":"/usr/bin/node","args":["/opt/my dev/dist/bin.js","--mcp-proxy"]}}}',
      "  MCP Inspector:  npx @modelcontextprotocol/inspector /usr/bin/node '/opt/my dev/dist/bin.js' --mcp-proxy",
    ]);
  });

  it('with the demo server and the console: their lines, and what to try first', () => {
    const lines = formatBanner(
      {
        adapterKey: 'ed25519:abc',
        keyFile: '/k',
        relayUrl: 'ws://127.0.0.1:8765',
        database: '/e.db',
        sources: [{ name: 'fs', namespace: 'com.demo.fs', connected: true, toolCount: 14, error: undefined }],
        self: { command: '/usr/bin/node', args: ['/opt/dist/bin.js'] },
        proxyArgs: ['--mcp-proxy'],
        consoleUrl: 'http://127.0.0.1:4000/?token=t',
        demoFile: '/opt/demo/hello.txt',
      },
      createStyle(false),
    );
    expect(lines.slice(4, 9)).toEqual([
      '✓ Demo server: server-filesystem over /opt/demo (removed when the devserver stops)',
      '✓ Web console: http://127.0.0.1:4000/?token=t (loopback only; the token is for this run)',
      '✓ Schema catalog: send xp.schema.catalog to the adapter key through ws://127.0.0.1:8765',
      '',
      'Try it: open the console, Try a call → com.demo.fs.read_text_file with path /opt/demo/hello.txt',
    ]);
  });
});

describe('inlineConfig', () => {
  it('wraps one stdio server, default allow with the adapter warning', () => {
    const { config, warnings } = inlineConfig({
      command: "node '/my data/server.js' /tmp",
      namespace: 'com.demo.fs',
      keyFile: '/k/adapter.key',
    });
    expect(config.mcpSources.map((s) => [s.name, s.namespace, s.transport, s.command])).toEqual([
      ['mcp', 'com.demo.fs', 'stdio', ['node', '/my data/server.js', '/tmp']],
    ]);
    expect(config.identity.keyFile).toBe('/k/adapter.key');
    expect(config.relay.urls).toEqual(['ws://127.0.0.1:8765']);
    expect(config.access.default).toBe('allow');
    expect(warnings.map((w) => w.code)).toEqual(['ACCESS_ALLOW_ALL']);
  });

  it('refuses a bad namespace with the adapter config error', () => {
    expect(() => inlineConfig({ command: 'node s.js', namespace: 'xp.mine', keyFile: '/k' })).toThrow(
      /xprotocol_namespace/,
    );
  });
});
