/**
 * The startup banner of docs/design.md §14: ✓ lines for the devserver, the adapter key, the local
 * relay and each wrapped MCP server, then an MCP client configuration snippet to paste.
 * @module
 */
import { dirname } from 'node:path';
import type { SourceStatus } from '@xprotocol/mcp-adapter';
import { _quoteCommandLine } from './_command-quote.js';
import type { Style } from './style.js';

/** What the banner shows. */
export interface BannerInfo {
  /** The adapter's `ed25519:` key. */
  adapterKey: string;
  keyFile: string;
  relayUrl: string;
  /** The relay's event database. */
  database: string;
  /** The adapter's HTTP discovery base URL, when the configuration serves it. */
  discoveryUrl?: string | undefined;
  sources: readonly (Pick<SourceStatus, 'name' | 'namespace' | 'connected' | 'toolCount' | 'error'> &
    Partial<Pick<SourceStatus, 'retrying'>>)[];
  /** The command that runs this devserver (absolute paths: it must work where it is pasted). */
  self: { command: string; args: readonly string[] };
  /** The devserver arguments of the `--mcp-proxy` snippet (a fixed non-default relay port, a custom key). */
  proxyArgs: readonly string[];
  /** The web console's URL with its per-run token, when it is served. */
  consoleUrl?: string | undefined;
  /** The demo server's file (no mode flag): what to read first. */
  demoFile?: string | undefined;
}

/**
 * The `mcpServers` entry that runs `--mcp-proxy` from an MCP client (Claude Code, Claude Desktop):
 * an absolute Node and bin path, so it works without a global install, and no port that changes
 * from run to run.
 * @example
 * mcpClientSnippet({ self: { command: '/usr/bin/node', args: ['/opt/devserver/dist/bin.js'] }, proxyArgs: ['--mcp-proxy'] });
 * // { mcpServers: { xprotocol: { command: '/usr/bin/node', args: ['/opt/devserver/dist/bin.js', '--mcp-proxy'] } } }
 */
export function mcpClientSnippet(info: Pick<BannerInfo, 'self' | 'proxyArgs'>): {
  mcpServers: { xprotocol: { command: string; args: string[] } };
} {
  return {
    mcpServers: { xprotocol: { command: info.self.command, args: [...info.self.args, ...info.proxyArgs] } },
  };
}

/**
 * The banner's lines (no trailing newlines). A source that is not connected gets a ✗ line with
 * its error (the adapter keeps retrying it).
 * @example
 * formatBanner({ adapterKey: 'ed25519:3f2a…', keyFile: '~/.xprotocol/devserver/adapter.key',
 *   relayUrl: 'ws://127.0.0.1:8765', database: '~/.xprotocol/devserver/events.db',
 *   sources: [{ name: 'mcp', namespace: 'com.demo.fs', connected: true, toolCount: 14, error: undefined }],
 *   self: { command: '/usr/bin/node', args: ['/opt/devserver/dist/bin.js'] },
 *   proxyArgs: ['--mcp-proxy'] }, createStyle(false))[0]; // '✓ XProtocol DevServer started'
 */
export function formatBanner(info: BannerInfo, style: Style): string[] {
  const ok = style.ok('✓');
  const lines = [
    `${ok} XProtocol DevServer started ${style.dim('(dev only: not for production)')}`,
    `${ok} Adapter key: ${info.adapterKey} ${style.dim(`(${info.keyFile})`)}`,
    `${ok} Local relay: ${info.relayUrl} ${style.dim(`(events in ${info.database})`)}`,
  ];
  for (const source of info.sources) {
    if (source.connected) {
      const tools = `${source.toolCount} tool${source.toolCount === 1 ? '' : 's'}`;
      lines.push(`${ok} Wrapped MCP server: ${source.namespace} (${tools}) ${style.dim(`[${source.name}]`)}`);
    } else {
      lines.push(
        source.retrying === false
          ? `${style.bad('✗')} Wrapped MCP server: ${source.namespace} cannot start: ${source.error ?? 'not connected'} ${style.dim('(not retried: fix the command and restart)')}`
          : `${style.bad('✗')} Wrapped MCP server: ${source.namespace} not reachable yet: ${source.error ?? 'not connected'} ${style.dim('(retrying)')}`,
      );
    }
  }
  if (info.discoveryUrl !== undefined) {
    lines.push(
      `${ok} Well-known: ${info.discoveryUrl}/.well-known/xprotocol-endpoint and ${info.discoveryUrl}/xp/schemas`,
    );
  }
  if (info.demoFile !== undefined) {
    lines.push(
      `${ok} Demo server: server-filesystem over ${dirname(info.demoFile)} ${style.dim('(removed when the devserver stops)')}`,
    );
  }
  if (info.consoleUrl !== undefined) {
    lines.push(
      `${ok} Web console: ${info.consoleUrl} ${style.dim('(loopback only; the token is for this run)')}`,
    );
  }
  lines.push(`${ok} Schema catalog: send xp.schema.catalog to the adapter key through ${info.relayUrl}`);
  if (info.demoFile !== undefined && info.consoleUrl !== undefined) {
    lines.push(
      '',
      `Try it: open the console, Try a call → com.demo.fs.read_text_file with path ${info.demoFile}`,
    );
  }
  const proxy = _quoteCommandLine([info.self.command, ...info.self.args, ...info.proxyArgs]);
  lines.push(
    '',
    'Use it from an MCP client (each runs --mcp-proxy, which reaches this devserver through its relay):',
    `  Claude Code:    claude mcp add xprotocol -- ${proxy}`,
    '  Claude Desktop: merge this into claude_desktop_config.json (Claude Code reads it from a project .mcp.json too):',
    JSON.stringify(mcpClientSnippet(info)),
    `  MCP Inspector:  npx @modelcontextprotocol/inspector ${proxy}`,
  );
  return lines;
}
