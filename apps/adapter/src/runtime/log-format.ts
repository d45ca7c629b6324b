/**
 * How a log record reads: JSON lines for machines (a pipe, a file, a log collector), or short
 * text lines for people at a terminal — `HH:MM:SS LEVEL message key=value …`, the lines after a
 * message's first (a child's stderr) indented under it, the level coloured when the stream is a
 * terminal and `NO_COLOR` is unset. `logging.format: auto` (the default) picks by the stream.
 * Both forms render the same record: what is never logged (tokens, env values) is in neither.
 * See docs/config.md, "logging".
 * @module
 */
import type { AdapterConfig } from '../config/index.js';

/** What a log line looks like: JSON, or readable text. */
export type LogFormat = 'json' | 'pretty';

/** Where log lines go, as far as the choice of format is concerned. */
export interface LogDestination {
  /** True when the destination is a terminal (`process.stderr.isTTY`); a file never is. */
  isTTY?: boolean;
}

/**
 * The format for `format` (a `logging.format` value, or `--log-format`) writing to
 * `destination`: `json` and `pretty` as asked (`text` is `pretty`), `auto` pretty on a terminal
 * and JSON anywhere else.
 * @example
 * chooseLogFormat('auto', process.stderr); // 'pretty' in a terminal, 'json' in a pipe
 */
export function chooseLogFormat(
  format: AdapterConfig['logging']['format'],
  destination: LogDestination | undefined,
): LogFormat {
  if (format === 'json') return 'json';
  if (format === 'pretty' || format === 'text') return 'pretty';
  return destination?.isTTY === true ? 'pretty' : 'json';
}

/** True when lines to `destination` may be coloured: a terminal, and `NO_COLOR` unset or empty. */
export function _colourFor(destination: LogDestination | undefined, env: NodeJS.ProcessEnv): boolean {
  return destination?.isTTY === true && !env.NO_COLOR;
}

const _LEVELS: Record<number, { name: string; colour: string }> = {
  10: { name: 'TRACE', colour: '\u001b[2m' },
  20: { name: 'DEBUG', colour: '\u001b[2m' },
  30: { name: 'INFO', colour: '\u001b[36m' },
  40: { name: 'WARN', colour: '\u001b[33m' },
  50: { name: 'ERROR', colour: '\u001b[31m' },
  60: { name: 'FATAL', colour: '\u001b[31m' },
};
const _RESET = '\u001b[0m';
const _DIM = '\u001b[2m';

/** Timing fields the messages already say in words (`retrying in 8 s (attempt 4)`). */
const _SAID_IN_MESSAGE = new Set(['retryInSeconds', 'restartInMs', 'attempt', 'restart', 'cooldownMs']);

/** `HH:MM:SS LEVEL ` — the width the lines after a message's first are indented to. */
const _PREFIX_WIDTH = 'HH:MM:SS LEVEL '.length;

/**
 * One JSON log line of pino as a readable line (ending with a newline): the time, the level, the
 * message, then the fields the message does not already say, as `key=value`. A line that is not
 * a JSON object is returned as it is.
 */
export function _prettyLine(line: string, colour: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (record === null || typeof record !== 'object') return line.endsWith('\n') ? line : `${line}\n`;
  const { level, time, msg, ...fields } = record;
  const message = String(msg ?? '');
  const clock = typeof time === 'string' ? time.slice(11, 19) : new Date().toISOString().slice(11, 19);
  const known = _LEVELS[level as number];
  const name = (known?.name ?? String(level)).padEnd(5);
  const shown = Object.entries(fields)
    .filter(
      ([key, value]) => !_SAID_IN_MESSAGE.has(key) && !(typeof value === 'string' && message.includes(value)),
    )
    .map(
      ([key, value]) =>
        `${key}=${typeof value === 'string' ? _firstLine(value) : JSON.stringify(value, _firstLines)}`,
    )
    .join(' ');
  const [first = '', ...rest] = message.split('\n');
  const indent = ' '.repeat(_PREFIX_WIDTH);
  const head = colour
    ? `${_DIM}${clock}${_RESET} ${known?.colour ?? ''}${name}${_RESET}`
    : `${clock} ${name}`;
  const more = rest.map((text) => `\n${indent}${text.trimStart()}`).join('');
  return `${head} ${first}${shown ? ` ${colour ? _DIM : ''}${shown}${colour ? _RESET : ''}` : ''}${more}\n`;
}

/** A value's first line: the lines after it (a child's stderr) were in their own log line. */
function _firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : `${text.slice(0, end)} …`;
}

/** `JSON.stringify` replacer: every string inside cut to its first line. */
function _firstLines(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? _firstLine(value) : value;
}
