/**
 * The startup banner of docs/design.md §14: ✓ lines for the devserver, the adapter key, the local
 * relay and each wrapped MCP server, then an MCP client configuration snippet to paste.
 * @module
 */
import type { SourceStatus } from '@xprotocol/mcp-adapter';
import type { Style } from './style.js';

/** What the banner shows. */
export interface BannerInfo {
  /** The adapter's `ed25519:` key. */
  adapterKey: string;
  keyFile: string;
  relayUrl: string;
  /** The relay's event database. */
  database: string;
  sources: readonly Pick<SourceStatus, 'name' | 'namespace' | 'connected' | 'toolCount' | 'error'>[];
  /** The arguments of the `--mcp-proxy` snippet (the relay port when it is not the default). */
  proxyArgs: readonly string[];
}

/**
 * The banner's lines (no trailing newlines). A source that is not connected gets a ✗ line with
 * its error (the adapter keeps retrying it).
 * @example
 * formatBanner({ adapterKey: 'ed25519:3f2a…', keyFile: '~/.xprotocol/devserver/adapter.key',
 *   relayUrl: 'ws://127.0.0.1:8765', database: '~/.xprotocol/devserver/events.db',
 *   sources: [{ name: 'mcp', namespace: 'com.demo.fs', connected: true, toolCount: 14, error: undefined }],
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
        `${style.bad('✗')} Wrapped MCP server: ${source.namespace} not reachable yet: ${source.error ?? 'not connected'} ${style.dim('(retrying)')}`,
      );
    }
  }
  lines.push(
    `${ok} Schema catalog: send xp.schema.catalog to the adapter key through ${info.relayUrl}`,
    '',
    'Paste into Claude Code MCP config:',
    JSON.stringify({
      mcpServers: { xprotocol: { command: 'xprotocol-devserver', args: [...info.proxyArgs] } },
    }),
  );
  return lines;
}
