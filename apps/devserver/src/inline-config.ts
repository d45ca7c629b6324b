/**
 * An adapter configuration for one inline stdio MCP server (`--mcp-command`, `--demo`). It is
 * written as a config document and run through the adapter's own `parseConfig`, so it gets the
 * same checks, defaults and warnings as a YAML file — `access.default: allow` is warned about.
 * @module
 */
import { type LoadedConfig, parseConfig } from '@xprotocol/mcp-adapter';
import { DEFAULT_RELAY_PORT, localRelayUrl } from './paths.js';

/** Options of {@link inlineConfig}. */
export interface InlineConfigOptions {
  /** The MCP server's command line, split shell-style (never run through a shell). */
  command: string;
  /** The `xprotocol_namespace` of its tools, e.g. `com.demo.fs`. */
  namespace: string;
  /** The `mcp_sources` entry name. Default `mcp`. */
  sourceName?: string;
  /** The adapter's key file (created when missing). */
  keyFile: string;
  /** The relay URL written into the document. Default `ws://127.0.0.1:8765` (`startDevServer` replaces it). */
  relayUrl?: string;
  /** Default `XProtocol DevServer`. */
  displayName?: string;
  /** Who may call. Default: `{ default: 'allow' }` (dev only; the config layer warns). */
  access?: { default: 'allow' | 'deny'; grants?: { key: string; capabilities: string[] }[] };
  /** The state database; default: the adapter's (`~/.xprotocol/state/<key>.db`). */
  stateDatabase?: string;
  /** Default `{ level: 'warn', format: 'text' }`. */
  logging?: { level: 'debug' | 'info' | 'warn' | 'error'; format: 'json' | 'text' };
  /** Names the document in messages. Default `--mcp-command`. */
  origin?: string;
}

/**
 * Builds and validates the configuration. Throws the adapter's `ConfigError` when an option is
 * invalid (a bad namespace, an unsplittable command…), naming the key at fault.
 * @example
 * const { config, warnings } = inlineConfig({
 *   command: 'npx @modelcontextprotocol/server-filesystem /tmp',
 *   namespace: 'com.demo.fs',
 *   keyFile: '/home/ada/.xprotocol/devserver/adapter.key',
 * });
 * warnings[0]?.code; // 'ACCESS_ALLOW_ALL'
 */
export function inlineConfig(options: InlineConfigOptions): LoadedConfig {
  const document = {
    identity: {
      key_file: options.keyFile,
      display_name: options.displayName ?? 'XProtocol DevServer',
    },
    relay: { urls: [options.relayUrl ?? localRelayUrl(DEFAULT_RELAY_PORT)] },
    mcp_sources: [
      {
        name: options.sourceName ?? 'mcp',
        transport: 'stdio',
        command: options.command,
        xprotocol_namespace: options.namespace,
        // A development tool shows every tool of the server it is pointed at: a tool that
        // description linting flags is published with its findings, not held for approval
        // (docs/security.md, "Tool pinning"). Changed definitions are still held.
        description_lint: 'warn',
      },
    ],
    access: options.access ?? { default: 'allow' },
    ...(options.stateDatabase !== undefined && { state_database: options.stateDatabase }),
    logging: options.logging ?? { level: 'warn', format: 'text' },
  };
  // JSON is YAML: the adapter's parser reads it with line and column positions.
  return parseConfig(`${JSON.stringify(document, null, 2)}\n`, options.origin ?? '--mcp-command', {
    env: {},
  });
}
