/**
 * The last lines a stdio child wrote on stderr, kept so that a child which exits before the MCP
 * handshake can be reported with what it said (npm's "404 Not Found", a stack trace, a usage
 * line) at the default log level. The tail is bounded (the last {@link STDERR_TAIL_LINES} lines,
 * at most {@link STDERR_TAIL_BYTES} bytes, each line cut to {@link STDERR_LINE_CHARS}
 * characters), the values of the child's configured environment never appear in it, and control
 * characters are removed, so a line cannot recolour or rewrite the operator's terminal.
 * See docs/architecture.md, "Upstream supervision".
 * @module
 */
import type { Readable } from 'node:stream';

/** How many of the last stderr lines are kept. */
export const STDERR_TAIL_LINES = 20;

/** The most bytes (UTF-8) the kept lines take together. */
export const STDERR_TAIL_BYTES = 4096;

/** The longest line kept, in characters (a longer one is cut and ends with `…`). */
export const STDERR_LINE_CHARS = 1000;

/** A line longer than this many characters is read without being kept, and not shown. */
const _PARTIAL_CHARS = 8192;

/** Environment values shorter than this are not searched for: no credential is that short. */
const _MIN_SECRET_CHARS = 4;

/** ANSI escape sequences (colours, cursor moves) and the other control characters but the tab. */
const _ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g;
const _CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * The values of `env` that must never be echoed: every value of at least four characters (a
 * shorter one would garble every line it occurs in, and protects nothing).
 */
export function _envSecrets(env: Readonly<Record<string, string>> | undefined): string[] {
  return Object.values(env ?? {}).filter((value) => value.length >= _MIN_SECRET_CHARS);
}

/**
 * Reads a child's stderr line by line: hands each line (cleaned and redacted) to `onLine`, and
 * keeps the last ones for {@link lines}.
 */
export class _StderrTail {
  readonly #secrets: readonly string[];
  readonly #onLine: (line: string) => void;
  readonly #kept: string[] = [];
  #partial = '';
  #dropping = false;
  #ended = false;
  readonly #end: Promise<void>;

  constructor(stream: Readable, secrets: readonly string[], onLine: (line: string) => void = () => {}) {
    this.#secrets = secrets;
    this.#onLine = onLine;
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.#push(chunk));
    this.#end = new Promise<void>((resolve) => {
      const ended = () => {
        if (this.#ended) return;
        this.#ended = true;
        this.#flush();
        resolve();
      };
      stream.once('end', ended);
      stream.once('close', ended);
      stream.once('error', ended);
    });
  }

  /** The kept lines, oldest first (a line not ended by a newline counts once the stream ends). */
  lines(): string[] {
    return [...this.#kept];
  }

  /** Resolves once the stream has ended (every line read), or after `ms`. */
  async settled(ms: number): Promise<void> {
    if (this.#ended) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#end,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }

  #push(chunk: string): void {
    const parts = chunk.split('\n');
    const last = parts.pop() ?? '';
    for (const part of parts) {
      this.#line(this.#partial + part);
      this.#partial = '';
      this.#dropping = false;
    }
    if (this.#dropping) return;
    this.#partial += last;
    if (this.#partial.length > _PARTIAL_CHARS) {
      // An endless line: read the rest of it without keeping it.
      this.#partial = '';
      this.#dropping = true;
    }
  }

  #flush(): void {
    if (this.#partial !== '' || this.#dropping) this.#line(this.#partial);
    this.#partial = '';
    this.#dropping = false;
  }

  #line(raw: string): void {
    const line = this.#clean(raw);
    if (line === '') return;
    this.#onLine(line);
    this.#kept.push(line);
    const bounded = this.#bounded(this.#kept);
    this.#kept.splice(0, this.#kept.length - bounded.length);
  }

  /** The last lines that fit the bounds. */
  #bounded(lines: string[]): string[] {
    const out = lines.slice(-STDERR_TAIL_LINES);
    let bytes = out.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    while (out.length > 1 && bytes > STDERR_TAIL_BYTES) bytes -= Buffer.byteLength(out.shift()!) + 1;
    return out;
  }

  /**
   * One line as it may be shown: the text a `\r` left last, no control characters, no secret.
   * A line too long to be read whole is not shown at all (it was cut, maybe inside a secret).
   */
  #clean(raw: string): string {
    if (this.#dropping) return `(a line of more than ${_PARTIAL_CHARS} characters, not shown)`;
    const segments = raw.split('\r').filter((s) => s.trim() !== '');
    let line = (segments[segments.length - 1] ?? '').replace(_ANSI, '').replace(_CONTROL, '');
    for (const secret of this.#secrets) line = line.split(secret).join('[redacted]');
    line = line.trimEnd();
    return line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS - 1)}…` : line;
  }
}
