/**
 * The console's Try-a-call client: a real XProtocol caller on the devserver's relay, signing with
 * a per-run dev client key (granted every capability, like the `--mcp-proxy` key) or, to see an
 * access refusal, a fresh key that no grant names. Each call is resolved, sealed to the adapter,
 * signed and published like any client's; the console shows the request event, the answer event
 * and the decoded answer.
 * @module
 */
import { generateIdentity, type Identity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';

/** Who signs a console call. */
export type ConsoleSigner = 'dev' | 'stranger';

/** An event as the console shows it (the envelope: the content is sealed). */
export interface ShownEvent {
  id: string;
  kind: string;
  from: string;
  to: string | undefined;
  bytes: number;
  created_at: number;
}

/** What a console call gives back. */
export interface ConsoleCallResult {
  ok: boolean;
  signer: ConsoleSigner;
  /** The request as it was published (undefined when it could not be built). */
  request: ShownEvent | undefined;
  /** The answer event: `<kind>.result` or `xp.error`. */
  answer: ShownEvent | undefined;
  /** The decoded answer (the tool's result) when `ok`. */
  payload?: unknown;
  /** The error (the adapter's `xp.error`, a relay refusal, or a timeout) when not `ok`. */
  error?: { code: string; message: string };
  roundTripMs: number;
}

/** Options of {@link ConsoleCaller}. */
export interface ConsoleCallerOptions {
  /** The devserver's relay (read when the first call starts: the relay starts after the grant). */
  relayUrl: () => string;
  /** The adapter's `ed25519:` key (read when each call starts: a reload keeps it). */
  adapterKey: () => string;
  /** Bound of one call, in ms. Default 30000. */
  timeoutMs?: number;
}

const _BACKENDS = { signatures: nodeSignatures, cipher: nodeCipher };

/** The console's two signers on one relay connection each. */
export class ConsoleCaller {
  /** The dev client identity (grant it every capability). */
  readonly dev: Identity = generateIdentity(_BACKENDS);
  readonly #o: ConsoleCallerOptions;
  readonly #callers = new Map<ConsoleSigner, Promise<{ caller: XpCaller; pool: RelayPool }>>();
  /** The request each signer published last, keyed by its id. */
  readonly #published = new Map<string, ShownEvent>();

  constructor(options: ConsoleCallerOptions) {
    this.#o = options;
  }

  /** Makes one call of `kind` with `payload`; never rejects on a remote or relay failure. */
  async call(kind: string, payload: unknown, signer: ConsoleSigner = 'dev'): Promise<ConsoleCallResult> {
    const started = performance.now();
    const { caller } = await this.#caller(signer);
    const timeoutMs = this.#o.timeoutMs ?? 30_000;
    const before = new Set(this.#published.keys());
    let outcome: Awaited<ReturnType<XpCaller['call']>>;
    try {
      const to = await caller.resolve(this.#o.adapterKey(), timeoutMs);
      outcome = await caller.call({ to: to.keys, kind, payload, timeoutMs });
    } catch (error) {
      return {
        ok: false,
        signer,
        request: undefined,
        answer: undefined,
        error: { code: 'CALL_FAILED', message: (error as Error).message },
        roundTripMs: performance.now() - started,
      };
    }
    const requestId = outcome.answer?.tags.find((t) => t[0] === 'e')?.[1];
    const request =
      (requestId !== undefined ? this.#published.get(requestId) : undefined) ??
      [...this.#published].find(([id]) => !before.has(id))?.[1];
    const result: ConsoleCallResult = {
      ok: outcome.ok,
      signer,
      request,
      answer: outcome.answer && _shown(outcome.answer),
      roundTripMs: performance.now() - started,
    };
    if (outcome.ok) result.payload = outcome.payload;
    else result.error = { code: outcome.error.code, message: outcome.error.message };
    return result;
  }

  /** Closes both relay connections. */
  async close(): Promise<void> {
    const callers = [...this.#callers.values()];
    this.#callers.clear();
    await Promise.allSettled(callers.map(async (c) => (await c).pool.close()));
  }

  #caller(signer: ConsoleSigner): Promise<{ caller: XpCaller; pool: RelayPool }> {
    let entry = this.#callers.get(signer);
    if (!entry) {
      const identity = signer === 'dev' ? this.dev : generateIdentity(_BACKENDS);
      entry = RelayPool.open({ urls: [this.#o.relayUrl()] }).then((pool) => ({
        pool,
        caller: new XpCaller({ identity, pool: this.#watched(pool), ..._BACKENDS }),
      }));
      entry.catch(() => this.#callers.delete(signer));
      this.#callers.set(signer, entry);
    }
    return entry;
  }

  /** The pool, with each publish recorded (a refusal reaches the live log from the relay itself). */
  #watched(pool: RelayPool): RelayPool {
    const published = this.#published;
    return new Proxy(pool, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (property !== 'publish') return value.bind(target);
        return (event: Parameters<RelayPool['publish']>[0]) => {
          published.set(event.id, _shown(event));
          while (published.size > 100) published.delete(published.keys().next().value as string);
          return target.publish(event);
        };
      },
    });
  }
}

function _shown(event: {
  id: string;
  kind: string;
  pubkey: string;
  tags: readonly (readonly string[])[];
  created_at: number;
}): ShownEvent {
  return {
    id: event.id,
    kind: event.kind,
    from: event.pubkey,
    to: event.tags.find((t) => t[0] === 'p')?.[1],
    bytes: Buffer.byteLength(JSON.stringify(event)),
    created_at: event.created_at,
  };
}
