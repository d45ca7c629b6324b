/**
 * `--mcp-proxy`: what the banner's Claude Code snippet runs. An MCP face on stdio whose one
 * `xprotocol_sources` entry is the running devserver's adapter (its key read from the dev key
 * file), reached through the devserver's relay. The proxy signs with its own key file
 * (`~/.xprotocol/devserver/proxy.key`), which the devserver grants every capability.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureKeyFile, nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { createLogger, parseConfig, type RunningAdapter, startAdapter } from '@xprotocol/mcp-adapter';

/** Options of {@link startMcpProxy}. */
export interface McpProxyOptions {
  /** The devserver adapter's key file (read, never created here). */
  adapterKeyFile: string;
  /** The proxy's own key file (created when missing). */
  proxyKeyFile: string;
  /** The proxy's state database. */
  stateDatabase: string;
  /** The devserver's relay, e.g. `ws://127.0.0.1:8765`. */
  relayUrl: string;
  /** MCP tool name prefix. Default `''`. */
  toolPrefix?: string;
  /** Streams of the MCP face. Default: the process's. */
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream };
}

/**
 * Creates the proxy key file when missing and returns its public `ed25519:` key (the devserver
 * calls this at startup to grant the proxy).
 */
export async function ensureProxyKey(proxyKeyFile: string): Promise<string> {
  mkdirSync(dirname(proxyKeyFile), { recursive: true, mode: 0o700 });
  const { identity } = await ensureKeyFile(proxyKeyFile, { signatures: nodeSignatures, cipher: nodeCipher });
  return identity.keys.ed25519;
}

/**
 * Starts the MCP face. Rejects when the dev key file cannot be read (no devserver has run yet).
 * Logs go to stderr at warn level: stdout belongs to the MCP protocol.
 */
export async function startMcpProxy(options: McpProxyOptions): Promise<RunningAdapter> {
  let adapterKey: string;
  try {
    const identity = await readKeyFile(options.adapterKeyFile, {
      signatures: nodeSignatures,
      cipher: nodeCipher,
    });
    adapterKey = identity.keys.ed25519;
  } catch (error) {
    throw new Error(
      `cannot read the devserver's key file ${options.adapterKeyFile}: ${(error as Error).message}; start xprotocol-devserver (--config or --mcp-command) first, or give its --key`,
      { cause: error },
    );
  }
  await ensureProxyKey(options.proxyKeyFile);
  const document = {
    identity: { key_file: options.proxyKeyFile, display_name: 'XProtocol DevServer MCP proxy' },
    relay: { urls: [options.relayUrl] },
    xprotocol_sources: [
      {
        name: 'devserver',
        key: adapterKey,
        relay: options.relayUrl,
        mcp_tool_prefix: options.toolPrefix ?? '',
      },
    ],
    mcp_server: { transport: 'stdio' },
    state_database: options.stateDatabase,
    logging: { level: 'warn', format: 'text' },
  };
  const { config } = parseConfig(`${JSON.stringify(document, null, 2)}\n`, '--mcp-proxy', { env: {} });
  return startAdapter(config, {
    logger: createLogger(config.logging),
    ...(options.stdio && { stdio: options.stdio }),
  });
}
