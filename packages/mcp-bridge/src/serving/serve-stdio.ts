/**
 * The MCP face over stdio: stdout then belongs to the protocol. The connection's first byte picks
 * the protocol: 0x00 (the first byte of a proto-mcp frame's length) is proto-mcp
 * (proto-mcp-session.ts, docs/architecture.md, "proto-mcp on the stdio face"), anything else JSON-RPC. Each JSON-RPC line is held
 * to JSON-RPC before the SDK transport reads it (json-rpc-stdio-guard.ts), and results are held to
 * the size cap (result-cap.ts).
 * @module
 */
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpFace } from '../face/mcp-face.js';
import type { BridgeLogger } from '../logger.js';
import { _guardStdin } from './json-rpc-stdio-guard.js';
import { _FrameReader, _frame } from './proto-mcp-framing.js';
import { _ProtoMcpSession } from './proto-mcp-session.js';
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
  let served: { close(): Promise<void> } | undefined;
  // The first chunk decides; it goes back into the stream for the protocol that reads it.
  stdin.once('data', (chunk: Buffer | string) => {
    const first = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    stdin.pause();
    stdin.unshift(first);
    served =
      first[0] === 0x00
        ? _serveProtoMcp(face, settings, logger, stdin, stdout)
        : _serveJsonRpc(face, settings, logger, stdin, stdout);
  });
  return {
    url: 'stdio',
    close: async () => {
      await served?.close();
      await face.close();
      stdin.pause();
    },
  };
}

/** The proto-mcp connection: frames in, one session, frames out. */
function _serveProtoMcp(
  face: McpFace,
  settings: McpFaceServeOptions,
  logger: BridgeLogger,
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
): { close(): Promise<void> } {
  const reader = new _FrameReader();
  const session = new _ProtoMcpSession(
    face,
    (bytes) => stdout.write(_frame(bytes)),
    logger,
    settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
  );
  // Answers in order of arrival would let one slow call hold every other; each goes when ready.
  const onData = (chunk: Buffer) => {
    for (const event of reader.push(chunk)) {
      if ('frame' in event) void session.handle(event.frame);
      else {
        logger.warn({ bytes: event.oversized }, 'proto-mcp: refused a frame over the cap');
        session.refuseOversized(event.oversized, reader.maxBytes);
      }
    }
  };
  stdin.on('data', onData);
  stdin.resume();
  return {
    close: async () => {
      stdin.off('data', onData);
      await session.close();
    },
  };
}

/** The JSON-RPC connection (the SDK's stdio transport). */
function _serveJsonRpc(
  face: McpFace,
  settings: McpFaceServeOptions,
  logger: BridgeLogger,
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
): { close(): Promise<void> } {
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
    close: async () => {
      await served.close();
      stdin.unpipe(guarded);
    },
  };
}
