/**
 * The audit log (docs/operating.md, "The audit log"): one JSON line per tool call, refused ones
 * included, appended to a file opened `O_APPEND` with mode 0600, rotated by size (`path.1` is the
 * newest old file, up to `path.<keep>`). Arguments appear only as the SHA-256 of their canonical
 * JSON unless the operator asks for them. Each line is written synchronously (`writeSync`) when the
 * call ends, so lines keep the order calls ended in and none waits in a buffer.
 * @module
 */
import { closeSync, constants as fs, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { argumentsHash } from './arguments-hash.js';
import type { CallObserver, CallRecord } from './call-observer.js';

/** Options of {@link AuditLog}. */
export interface AuditLogOptions {
  path: string;
  /** Size past which the file is rotated, in bytes. */
  maxBytes: number;
  /** Rotated files kept besides the live one. */
  keep: number;
  /** Write the arguments themselves (default false: only their hash). */
  includeArguments?: boolean;
  /** The clock, in ms. */
  now?: () => number;
  /** Told when a line cannot be written (the call goes on). */
  onError?: (error: Error) => void;
}

/** An append-only JSON-lines file of calls. */
export class AuditLog implements CallObserver {
  readonly #o: AuditLogOptions;
  #fd: number | undefined;
  #size = 0;

  constructor(options: AuditLogOptions) {
    if (!Number.isInteger(options.maxBytes) || options.maxBytes < 1024)
      throw new Error(`audit log max bytes: expected an integer of at least 1024, got ${options.maxBytes}`);
    if (!Number.isInteger(options.keep) || options.keep < 1)
      throw new Error(`audit log keep: expected an integer of at least 1, got ${options.keep}`);
    this.#o = options;
    this.#open();
  }

  callEnded(record: CallRecord): void {
    try {
      this.#write(`${JSON.stringify(this.#line(record))}\n`);
    } catch (error) {
      this.#o.onError?.(error as Error);
    }
  }

  /** Closes the file; later calls are not written. */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  #line(record: CallRecord): Record<string, unknown> {
    return {
      time: new Date((this.#o.now ?? Date.now)()).toISOString(),
      path: record.path,
      caller: record.caller ?? null,
      ...(record.delegatedBy !== undefined && { delegated_by: record.delegatedBy }),
      source: record.source ?? null,
      tool: record.tool ?? null,
      ...(record.arguments !== undefined && { arguments_sha256: argumentsHash(record.arguments) }),
      ...(this.#o.includeArguments === true &&
        record.arguments !== undefined && { arguments: record.arguments }),
      verdict: record.verdict,
      ...(record.reason !== undefined && { reason: record.reason }),
      ...(record.errorCode !== undefined && { error_code: record.errorCode }),
      latency_ms: Math.round(record.latencyMs * 1000) / 1000,
      ...(record.traceId !== undefined && { trace_id: record.traceId }),
    };
  }

  #write(line: string): void {
    if (this.#fd === undefined) return;
    const bytes = Buffer.byteLength(line);
    if (this.#size > 0 && this.#size + bytes > this.#o.maxBytes) this.#rotate();
    writeSync(this.#fd, line);
    this.#size += bytes;
  }

  #open(): void {
    // O_APPEND: every write lands at the end, whoever else has the file open.
    this.#fd = openSync(this.#o.path, fs.O_WRONLY | fs.O_CREAT | fs.O_APPEND, 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  #rotate(): void {
    this.close();
    const { path, keep } = this.#o;
    rmSync(`${path}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) _renameIfThere(`${path}.${i}`, `${path}.${i + 1}`);
    _renameIfThere(path, `${path}.1`);
    this.#open();
  }
}

function _renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
