/**
 * The adapter's logger: pino, to stderr by default (stdout may carry the MCP protocol), or to a
 * file; JSON lines, or short text lines for people (`logging.format`: `pretty`, or `auto` — the
 * default — when the destination is a terminal; log-format.ts renders them).
 * @module
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BridgeLogger } from '@xprotocol/mcp-bridge';
import pino, { type Logger } from 'pino';
import type { AdapterConfig } from '../config/index.js';
import { _colourFor, _prettyLine, chooseLogFormat, type LogDestination } from './log-format.js';

/** A logger both pino-shaped and usable as the bridge's {@link BridgeLogger}. */
export type AdapterLogger = Logger & BridgeLogger;

interface LineSink {
  write(line: string): void;
}

/** Renders pino's JSON lines as readable lines (see log-format.ts). */
function prettySink(target: LineSink, colour: boolean): LineSink {
  return { write: (line: string) => target.write(_prettyLine(line, colour)) };
}

/**
 * Creates the logger `logging` asks for: to stderr (default), stdout or a file, as JSON lines or
 * readable text (`logging.format`; `auto` decides by whether the destination is a terminal).
 */
export function createLogger(
  logging: AdapterConfig['logging'],
  streams: { stderr?: LineSink & LogDestination; stdout?: LineSink & LogDestination } = {},
): AdapterLogger {
  let sink: LineSink & LogDestination;
  if (typeof logging.output === 'object') {
    mkdirSync(dirname(logging.output.file), { recursive: true });
    // A file is never a terminal: `auto` writes JSON there.
    sink = Object.assign(createWriteStream(logging.output.file, { flags: 'a', mode: 0o600 }), {
      isTTY: false,
    });
  } else if (logging.output === 'stdout') {
    sink = streams.stdout ?? process.stdout;
  } else {
    sink = streams.stderr ?? process.stderr;
  }
  const pretty = chooseLogFormat(logging.format, sink) === 'pretty';
  return pino(
    { level: logging.level, base: null, timestamp: pino.stdTimeFunctions.isoTime },
    pretty ? prettySink(sink, _colourFor(sink, process.env)) : sink,
  ) as AdapterLogger;
}
