/**
 * The MCP face over stdio: stdout then belongs to the protocol. Each line is held to JSON-RPC
 * before the SDK transport reads it (json-rpc-stdio-guard.ts), and results are held to the size
 * cap (result-cap.ts).
 * @module
 */
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpFace } from '../face/mcp-face.js';
import type { BridgeLogger } from '../logger.js';
import { _guardStdin } from './json-rpc-stdio-guard.js';
import { _capResults, DEFAULT_MAX_RESULT_BYTES } from './result-cap.js';
import type { McpFaceServeOptions, McpFaceServer } from './serve-options.js';

/** Serves `face` on `stdio` (the process's own stdin and stdout by default). */
export function _serveStdio(
  face: McpFace,
  settings: McpFaceServeOptions,
  logger: BridgeLogger,
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): McpFaceServer {
  const stdin = stdio?.stdin ?? process.stdin;
  const stdout = stdio?.stdout ?? process.stdout;
  // Each line is held to JSON-RPC before the SDK transport reads it (json-rpc-stdio-guard.ts).
  const guarded = _guardStdin(stdin, stdout, logger);
  const transport = new StdioServerTransport(
    guarded as unknown as ConstructorParameters<typeof StdioServerTransport>[0],
    stdout as ConstructorParameters<typeof StdioServerTransport>[1],
  );
  _capResults(transport, settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES);
  // The connection's first message picks its MCP revision: `initialize` a 2025-11-25 session,
  // a request with the 2026-07-28 `_meta` claim (or `server/discover`) that revision, served by
  // one server for the connection (docs/architecture.md, "Two MCP revisions").
  const served = serveStdio(({ era }) => face.createServer({ era }), {
    transport,
    onerror: (error) => logger.debug({ error: error.message }, 'MCP stdio face: a message was refused'),
  });
  return {
    url: 'stdio',
    close: async () => {
      await served.close();
      await face.close();
      stdin.unpipe(guarded);
      stdin.pause();
    },
  };
}
