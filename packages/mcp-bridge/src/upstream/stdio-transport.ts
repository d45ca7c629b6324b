/**
 * Our MCP client transport over a child's stdio, in place of the SDK's: the child is spawned
 * without a shell, with the SDK's safe default environment plus the configured one, and leads a
 * process group of its own, so ending it ends everything it started (the grandchildren of a
 * wrapper such as `npx server` or `sh -c`); its stdout is read line by line with a cap on one
 * line, so a server that never ends a line cannot grow our memory, and a line over the cap fails
 * only the request it answers. See docs/architecture.md, "Upstream supervision", and
 * docs/security.md, "Upstream stdio children".
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import {
  deserializeMessage,
  type JSONRPCMessage,
  SdkError,
  SdkErrorCode,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { _Envelope } from './jsonrpc-envelope.js';
import { _LineSplitter } from './line-splitter.js';
import { _PROCESS_GROUPS, _signalGroup, _trackGroup, _untrackGroup } from './process-group.js';

/** The default cap on one line of a child's stdout: 16 MiB (MCP results can be large). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The default for how long a line over the cap may run before the server counts as writing no
 * lines at all: 256 MiB (skipping costs no memory, only the time to read it).
 */
export const DEFAULT_MAX_SKIPPED_LINE_BYTES = 256 * 1024 * 1024;

/** The default for each bounded wait of {@link StdioChildTransport.close}, in ms. */
export const DEFAULT_CLOSE_GRACE_MS = 2000;

/** How often an ended child's group is probed for members left, in ms. */
const _PROBE_MS = 50;

/** Options of {@link StdioChildTransport}. */
export interface StdioChildTransportOptions {
  /** Names the server in errors. */
  source: string;
  /** The program (looked up on `PATH`, never run through a shell). */
  command: string;
  args?: readonly string[];
  /** Added to the SDK's safe default environment (`getDefaultEnvironment()`: `HOME`, `PATH`, …). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** The longest line accepted on the child's stdout, in bytes, without its `\n`. Default 16 MiB. */
  maxLineBytes?: number;
  /**
   * The longest line skipped to its newline (a longer line is dropped, and fails only the request
   * it answers); past it the transport closes. At least `maxLineBytes`. Default 256 MiB.
   */
  maxSkippedLineBytes?: number;
  /**
   * Each bounded wait of `close()`, in ms: for the child to exit once its stdin ended, then once
   * its group got `SIGTERM`; also how long the group of an ended child has before `SIGKILL`.
   * Default 2000.
   */
  graceMs?: number;
}

/**
 * The child wrote a line on stdout longer than the cap and no newline within
 * `maxSkippedLineBytes`. The transport reports it through `onerror`, then closes (the child's
 * group is ended), so the requests waiting on it fail.
 */
export class StdoutLineTooLongError extends Error {
  /** The cap, in bytes. */
  readonly maxLineBytes: number;
  /** How far a line over the cap is skipped before the transport gives up, in bytes. */
  readonly maxSkippedLineBytes: number;
  /** The bytes received for the line when it went past `maxSkippedLineBytes`. */
  readonly receivedBytes: number;

  constructor(source: string, maxLineBytes: number, maxSkippedLineBytes: number, receivedBytes: number) {
    super(
      `${source}: the server wrote a line on stdout longer than the limit of ${_size(maxLineBytes)} (maxLineBytes ${maxLineBytes}) and no newline within ${_size(maxSkippedLineBytes)} (maxSkippedLineBytes ${maxSkippedLineBytes}): received ${receivedBytes} bytes without a newline; the connection is closed and the server ended`,
    );
    this.name = 'StdoutLineTooLongError';
    this.maxLineBytes = maxLineBytes;
    this.maxSkippedLineBytes = maxSkippedLineBytes;
    this.receivedBytes = receivedBytes;
  }
}

/**
 * The child wrote a line on stdout longer than the cap, and ended it: the line was dropped. When
 * its top-level `"id"` names a request of ours, that request alone fails (the transport hands
 * the client a JSON-RPC error for it); a request of the server is answered with an error; anything
 * else fails nothing. Reported through `onerror`; the transport stays open.
 */
export class StdoutLineSkippedError extends Error {
  /** The cap, in bytes. */
  readonly maxLineBytes: number;
  /** The length of the dropped line, in bytes, without its `\n`. */
  readonly lineBytes: number;
  /** Its top-level `"id"`, when it had one (a number or a string). */
  readonly id: number | string | undefined;

  constructor(source: string, maxLineBytes: number, lineBytes: number, envelope: _Envelope) {
    super(
      `${source}: skipped a line of ${lineBytes} bytes on stdout, over the limit of ${_size(maxLineBytes)} (maxLineBytes ${maxLineBytes}): ${_skippedWhat(envelope)}`,
    );
    this.name = 'StdoutLineSkippedError';
    this.maxLineBytes = maxLineBytes;
    this.lineBytes = lineBytes;
    this.id = envelope.id;
  }
}

/**
 * The `data` of the JSON-RPC errors this transport makes for the answers it dropped: the client
 * sees them as the server's, so the session tells them apart by identity.
 */
const _DROPPED_ANSWERS = new WeakSet<object>();

/**
 * Whether `data` (of a JSON-RPC error the client received) is that of an answer the transport
 * dropped for being over its line cap, rather than an error the server sent.
 */
export function _isDroppedAnswer(data: unknown): boolean {
  return typeof data === 'object' && data !== null && _DROPPED_ANSWERS.has(data);
}

/**
 * An MCP client transport to a server run as a child process over stdio, one JSON-RPC message
 * per line. The child leads its own process group (it is not `unref`'d: it ends with us).
 *
 * - `start()` resolves once the child is spawned and rejects with the spawn error (`ENOENT`,
 *   `EACCES`: `code` and `syscall` kept).
 * - `send()` writes one line and resolves once the pipe took it (it waits for `drain`); it
 *   rejects when stdin closes first.
 * - A line that is not a JSON-RPC message is reported through `onerror` and skipped. A line over
 *   `maxLineBytes` is skipped to its newline and reported ({@link StdoutLineSkippedError}); when
 *   its top-level `"id"` names a request, `onmessage` gets a JSON-RPC error for that id
 *   (`-32603`, `data: {xp_code: "TOO_LARGE", size, limit}`), and a request of the server is
 *   answered `-32600`. A line still without a newline past `maxSkippedLineBytes` is reported
 *   ({@link StdoutLineTooLongError}) and closes the transport.
 * - `close()` ends stdin, waits up to `graceMs` for the child to exit, sends `SIGTERM` to its
 *   group, waits up to `graceMs` again, then sends `SIGKILL` to the group.
 * - When the child exits (on its own or not), what is left of its group gets `SIGTERM` at once
 *   and `SIGKILL` after `graceMs`; if our process exits first, the group gets `SIGKILL`.
 * - `onclose` is called once: when the child has exited and its pipes closed (or `graceMs` after
 *   the exit, if a process outside the group still holds them), or by `close()`.
 */
export class StdioChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  readonly #options: StdioChildTransportOptions;
  readonly #graceMs: number;
  readonly #lines: _LineSplitter;
  readonly #stderr = new PassThrough();
  #child: ChildProcess | undefined;
  #spawned = false;
  #exited = false;
  readonly #exit: _Latch = _latch();
  #ended = false;
  readonly #end: _Latch = _latch();
  #closing: Promise<void> | undefined;
  #failure: Error | undefined;
  /** Sends waiting for stdin to drain. */
  #waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];

  constructor(options: StdioChildTransportOptions) {
    this.#options = options;
    this.#graceMs = options.graceMs ?? DEFAULT_CLOSE_GRACE_MS;
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const maxSkipped = options.maxSkippedLineBytes ?? Math.max(DEFAULT_MAX_SKIPPED_LINE_BYTES, maxLineBytes);
    if (maxSkipped < maxLineBytes) {
      throw new RangeError(
        `${options.source}: maxSkippedLineBytes (${maxSkipped}) must be at least maxLineBytes (${maxLineBytes})`,
      );
    }
    this.#lines = new _LineSplitter(maxLineBytes, maxSkipped);
  }

  /**
   * The child process once `start()` has spawned it (undefined before): its `pid`, its
   * `exitCode` and `signalCode`, its `exit` event. For reading only: the transport owns its
   * streams and its end.
   */
  get child(): ChildProcess | undefined {
    return this.#child;
  }

  /** The child's pid, once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The child's stderr, available before `start()` so no early line is lost. */
  get stderr(): Readable {
    return this.#stderr;
  }

  /** Why the transport closed itself ({@link StdoutLineTooLongError}), if it did. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error(`${this.#options.source}: the stdio transport is already started`);
    const { command, args = [], env, cwd } = this.#options;
    const child = spawn(command, [...args], {
      env: { ...getDefaultEnvironment(), ...env },
      ...(cwd && { cwd }),
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      // Its own group, so one signal reaches all it starts; never unref'd: it ends with us.
      detached: _PROCESS_GROUPS,
      windowsHide: true,
    });
    this.#child = child;
    const stdin = child.stdin as NonNullable<ChildProcess['stdin']>;
    const stdout = child.stdout as NonNullable<ChildProcess['stdout']>;
    stdin.on('error', (error) => this.onerror?.(error));
    stdin.on('drain', () => this.#drained());
    stdin.on('close', () =>
      this.#drained(
        new SdkError(
          SdkErrorCode.ConnectionClosed,
          `${this.#options.source}: the server's stdin closed before the message was written`,
        ),
      ),
    );
    stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    stdout.on('error', (error) => this.onerror?.(error));
    child.stderr?.pipe(this.#stderr);
    child.once('exit', () => this.#onExit(child));
    child.once('close', () => {
      if (this.#spawned) this.#finish();
    });
    await new Promise<void>((resolve, reject) => {
      child.on('error', (error) => {
        if (this.#spawned) {
          this.onerror?.(error);
          return;
        }
        this.#exit.open();
        reject(error);
      });
      child.once('spawn', () => {
        this.#spawned = true;
        if (child.pid !== undefined) _trackGroup(child.pid);
        resolve();
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const stdin = this.#child?.stdin;
      if (!stdin?.writable || this.#ended || this.#closing) {
        reject(new SdkError(SdkErrorCode.NotConnected, `${this.#options.source}: not connected`));
        return;
      }
      // A message that cannot be serialized throws here, before anything is written.
      if (stdin.write(serializeMessage(message))) resolve();
      else this.#waiting.push({ resolve, reject });
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown(true);
    return this.#closing;
  }

  /** Ends the child: gently (stdin first) for `close()`, at once when the child broke the protocol. */
  async #shutdown(gentle: boolean): Promise<void> {
    const child = this.#child;
    const pid = child?.pid;
    if (!child || pid === undefined || !this.#spawned) {
      this.#finish();
      return;
    }
    if (gentle && !this.#exited) {
      try {
        child.stdin?.end();
      } catch {
        // Already closed: the signals below end it.
      }
      await this.#exit.wait(this.#graceMs);
    }
    if (!this.#exited) {
      _signalGroup(pid, 'SIGTERM');
      await this.#exit.wait(this.#graceMs);
    }
    if (!this.#exited) {
      _signalGroup(pid, 'SIGKILL');
      // In case the child moved itself out of its group.
      child.kill('SIGKILL');
      await this.#exit.wait(this.#graceMs);
    }
    if (this.#exited) await this.#end.wait(this.#graceMs + 1000);
    this.#finish();
  }

  /** The child exited: end what is left of its group, and the transport soon after. */
  #onExit(child: ChildProcess): void {
    this.#exited = true;
    this.#exit.open();
    if (child.pid !== undefined) void this.#reap(child.pid);
    // A process that left the group may still hold stdout open: do not wait for it forever.
    setTimeout(() => this.#finish(), this.#graceMs).unref();
  }

  /** `SIGTERM` to the group of an ended child, `SIGKILL` to whatever is left after the grace. */
  async #reap(pid: number): Promise<void> {
    if (_signalGroup(pid, 'SIGTERM')) {
      const deadline = Date.now() + this.#graceMs;
      while (Date.now() < deadline && _signalGroup(pid, 0)) await _sleep(_PROBE_MS);
      if (_signalGroup(pid, 0)) _signalGroup(pid, 'SIGKILL');
    }
    _untrackGroup(pid);
  }

  /** Calls `onclose` once, and lets go of the pipes. */
  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#lines.clear();
    const child = this.#child;
    child?.stdout?.destroy();
    child?.stdin?.destroy();
    child?.stderr?.unpipe(this.#stderr);
    child?.stderr?.destroy();
    this.#stderr.end();
    this.#drained(
      new SdkError(
        SdkErrorCode.ConnectionClosed,
        `${this.#options.source}: the connection closed before the message was written`,
      ),
    );
    this.#end.open();
    this.onclose?.();
  }

  /** Settles the sends waiting for `drain`: all of them, as `drain` means the buffer is empty. */
  #drained(error?: Error): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const send of waiting) {
      if (error) send.reject(error);
      else send.resolve();
    }
  }

  #read(chunk: Buffer): void {
    if (this.#failure || this.#ended) return;
    const received = this.#lines.push(
      chunk,
      { line: (line) => this.#deliver(line), skipped: (bytes, envelope) => this.#skipped(bytes, envelope) },
      () => this.#ended,
    );
    if (received === undefined) return;
    const { maxLineBytes, maxSkippedLineBytes } = this.#lines;
    const error = new StdoutLineTooLongError(
      this.#options.source,
      maxLineBytes,
      maxSkippedLineBytes,
      received,
    );
    this.#failure = error;
    // Read no more of it: the child's next write fails, and the signals below end it.
    this.#child?.stdout?.destroy();
    this.onerror?.(error);
    this.#closing ??= this.#shutdown(false);
  }

  /**
   * A line over the cap was dropped: the request it answers fails alone, a request of the server
   * gets an error answer, and anything else only the report.
   */
  #skipped(bytes: number, envelope: _Envelope): void {
    const limit = this.#lines.maxLineBytes;
    this.onerror?.(new StdoutLineSkippedError(this.#options.source, limit, bytes, envelope));
    const { id } = envelope;
    if (id === undefined) return;
    if (envelope.hasMethod) {
      const message = `the request was a line of ${bytes} bytes on stdout, over the client's limit of ${_size(limit)} (maxLineBytes ${limit})`;
      this.send({ jsonrpc: '2.0', id, error: { code: -32600, message } }).catch((error: unknown) =>
        this.onerror?.(error instanceof Error ? error : new Error(String(error))),
      );
      return;
    }
    const data = { xp_code: 'TOO_LARGE', size: bytes, limit };
    _DROPPED_ANSWERS.add(data);
    const message = `the server's answer was a line of ${bytes} bytes on stdout, over the limit of ${_size(limit)} (maxLineBytes ${limit}); it was dropped, and the session goes on`;
    this.#dispatch({ jsonrpc: '2.0', id, error: { code: -32603, message, data } });
  }

  #deliver(bytes: Buffer): void {
    let line = bytes.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      const what =
        error instanceof SyntaxError ? 'text that is not JSON' : 'JSON that is not a JSON-RPC message';
      this.onerror?.(
        new Error(
          `${this.#options.source}: skipped a line on stdout: expected a JSON-RPC message, received ${what} (${bytes.length} bytes: ${JSON.stringify(line.slice(0, 80))}${line.length > 80 ? '…' : ''})`,
          { cause: error },
        ),
      );
      return;
    }
    this.#dispatch(message);
  }

  #dispatch(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** A one-shot signal that can be awaited with a bound. */
interface _Latch {
  open(): void;
  /** Resolves once open, or after `ms`. */
  wait(ms: number): Promise<void>;
}

function _latch(): _Latch {
  let opened = false;
  let release: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    open: () => {
      opened = true;
      release();
    },
    wait: async (ms) => {
      if (opened) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        promise,
        new Promise<void>((resolve) => {
          // Kept ref'd: an awaited close() must not let the process exit under it.
          timer = setTimeout(resolve, ms);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

function _sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** What a skipped line was, and what became of it. */
function _skippedWhat(envelope: _Envelope): string {
  const { id } = envelope;
  if (envelope.hasMethod) {
    return id === undefined
      ? 'a notification of the server (no "id"); no request fails'
      : `a request of the server (id ${JSON.stringify(id)}), answered with error -32600`;
  }
  if (id === undefined) return 'no top-level "id" in it, so no request fails; the session goes on';
  return `the answer to request ${JSON.stringify(id)}, which fails alone; the session goes on`;
}

/** `16 MiB`, `512 KiB` or `100 bytes`. */
function _size(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (Number.isInteger(mib)) return `${mib} MiB`;
  const kib = bytes / 1024;
  if (Number.isInteger(kib)) return `${kib} KiB`;
  return `${bytes} bytes`;
}
