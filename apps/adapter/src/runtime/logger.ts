/**
 * The adapter's logger: pino, to stderr by default (stdout may carry the MCP protocol), or to a
 * file; JSON lines, or short text lines for people (`logging.format: text`, and on a TTY).
 * @module
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BridgeLogger } from '@xprotocol/mcp-bridge';
import pino, { type Logger } from 'pino';
import type { AdapterConfig } from '../config/index.js';

/** A logger both pino-shaped and usable as the bridge's {@link BridgeLogger}. */
export type AdapterLogger = Logger & BridgeLogger;

interface LineSink {
  write(line: string): void;
}

/** Renders pino's JSON lines as `HH:MM:SS LEVEL message key=value …`. */
function textSink(target: LineSink): LineSink {
  const names: Record<number, string> = {
    10: 'TRACE',
    20: 'DEBUG',
    30: 'INFO',
    40: 'WARN',
    50: 'ERROR',
    60: 'FATAL',
  };
  return {
    write(line: string) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        target.write(line);
        return;
      }
      const { level, time, msg, ...rest } = record;
      const clock = typeof time === 'string' ? time.slice(11, 19) : new Date().toISOString().slice(11, 19);
      const fields = Object.entries(rest)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      target.write(
        `${clock} ${(names[level as number] ?? String(level)).padEnd(5)} ${String(msg ?? '')}${fields ? ` ${fields}` : ''}\n`,
      );
    },
  };
}

/** Creates the logger `logging` asks for. */
export function createLogger(
  logging: AdapterConfig['logging'],
  streams: { stderr?: LineSink; stdout?: LineSink } = {},
): AdapterLogger {
  let sink: LineSink;
  if (typeof logging.output === 'object') {
    mkdirSync(dirname(logging.output.file), { recursive: true });
    sink = createWriteStream(logging.output.file, { flags: 'a', mode: 0o600 });
  } else if (logging.output === 'stdout') {
    sink = streams.stdout ?? process.stdout;
  } else {
    sink = streams.stderr ?? process.stderr;
  }
  const text = logging.format === 'text';
  return pino(
    { level: logging.level, base: null, timestamp: pino.stdTimeFunctions.isoTime },
    text ? textSink(sink) : sink,
  ) as AdapterLogger;
}
