/**
 * Idempotent retries on the face (docs/operating.md, "Idempotency and replay"): a `tools/call`
 * whose `_meta` carries `io.xprotocol/idempotency-key` is recorded once it answered (the state
 * database's `recorded_calls`, for the window); a call with the same key from the same principal
 * within the window gets the recorded result and nothing runs again. The same key with another
 * tool or other arguments is refused, and a retry that comes while the first call still runs
 * waits for its answer. A call that failed (a JSON-RPC error: nothing answered) is not recorded,
 * so its retry runs.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import { argumentsHash } from '../observe/arguments-hash.js';
import type { StateDatabase } from '../state/state-database.js';

/** The `_meta` member that names a call's idempotency key. */
export const IDEMPOTENCY_KEY_META = 'io.xprotocol/idempotency-key';

/** The default window: records are kept, and retries answered from them, for a day. */
export const DEFAULT_IDEMPOTENCY_WINDOW_SECONDS = 86_400;

const KEY = /^[\x21-\x7e]{1,256}$/;

/** One keyed call: who made it, its key, and what it calls. */
interface _KeyedCall {
  principal: string | undefined;
  key: string;
  tool: string;
  contractVersion: string | undefined;
  args: Record<string, unknown>;
}

/** The face's recorded calls, and the keyed calls running now. */
export class _IdempotentCalls {
  readonly #state: StateDatabase;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #running = new Map<string, Promise<unknown>>();

  constructor(state: StateDatabase, windowSeconds: number, now: () => number = Date.now) {
    this.#state = state;
    this.#windowMs = windowSeconds * 1000;
    this.#now = now;
  }

  /**
   * The idempotency key of a call's params, undefined without one; a key that is not 1–256
   * printable ASCII characters is refused.
   */
  static keyOf(params: { _meta?: unknown }): string | undefined {
    const key = (params._meta as Record<string, unknown> | undefined)?.[IDEMPOTENCY_KEY_META];
    if (key === undefined) return undefined;
    if (typeof key !== 'string' || !KEY.test(key))
      throw new ProtocolError(
        -32602,
        `_meta["${IDEMPOTENCY_KEY_META}"]: expected 1 to 256 printable ASCII characters (no space), got ${JSON.stringify(key)?.slice(0, 80)}`,
      );
    return key;
  }

  /** Runs `call` at most once per (principal, key) within the window: see the module comment. */
  async run(call: _KeyedCall, run: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const scope = `${call.principal ?? ''}\n${call.key}`;
    // A retry while the first call runs: its answer decides, once it is there. From this check
    // to #running.set below nothing waits, so two calls cannot both find the key free.
    const pending = this.#running.get(scope);
    if (pending) {
      await pending.catch(() => {});
      return this.run(call, run);
    }
    const hash = argumentsHash(call.args);
    const found = this.#state.recordedCall(call.principal ?? null, call.key, this.#now() - this.#windowMs);
    if (found) {
      if (found.tool !== call.tool || found.argumentsSha256 !== hash) {
        throw new ProtocolError(
          -32602,
          `idempotency key ${JSON.stringify(call.key)} was used for another call (${found.tool} with other arguments) ${Math.round((this.#now() - found.recordedAt) / 1000)} s ago: a retry must repeat the tool and its arguments exactly, a new call needs a new key`,
          { idempotency: 'conflict', recorded_call: found.id },
        );
      }
      return found.result;
    }
    const running = run();
    this.#running.set(scope, running);
    try {
      const result = await running;
      this.#state.recordCall(
        {
          id: randomBytes(16).toString('hex'),
          recordedAt: this.#now(),
          principal: call.principal ?? null,
          idempotencyKey: call.key,
          tool: call.tool,
          contractVersion: call.contractVersion ?? null,
          argumentsSha256: hash,
          arguments: call.args,
          result,
        },
        this.#now() - this.#windowMs,
      );
      return result;
    } finally {
      if (this.#running.get(scope) === running) this.#running.delete(scope);
    }
  }
}
