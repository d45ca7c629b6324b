/**
 * The suite's XProtocol client: it seals and signs requests with its own identities, publishes
 * them to the real relay (or hands them to the {@link InjectorRelay} unchecked), and collects the
 * adapter's answers — events naming the request in an `e` tag (docs/protocol.md §2.2, §6.3).
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  createEventTemplate,
  getTag,
  type Identity,
  openEvent,
  type PublicIdentity,
  sealEvent,
  signEvent,
  verifyEvent,
  type X25519KeyString,
  type XpEvent,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { RelayPool } from '@xprotocol/relay-client';
import type { InjectorRelay } from './injector-relay.js';

/** What came back for one request. */
export interface Exchange {
  /** The request as sent. */
  readonly request: XpEvent;
  /** The first answer naming the request, if any arrived in time. */
  readonly answer: XpEvent | undefined;
  /** Every answer naming the request (more than one means a replay was answered twice). */
  readonly answers: readonly XpEvent[];
  /** The answer's decrypted payload (or parsed content for public kinds); undefined when none. */
  readonly payload: unknown;
  /** Why the answer could not be opened, if it could not. */
  readonly openError?: string;
}

const BACKENDS = { signatures: nodeSignatures, cipher: nodeCipher };

/** Seconds since the epoch. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Seals a request from `sender` to `to` (the usual, valid form). */
export function sealRequest(
  sender: Identity,
  to: PublicIdentity,
  kind: string,
  payload: unknown,
  options: { created_at?: number; expiration?: number; tags?: readonly (readonly string[])[] } = {},
): XpEvent {
  const created = options.created_at ?? nowSeconds();
  return sealEvent(
    {
      kind,
      payload,
      created_at: created,
      expiration: options.expiration ?? created + 60,
      ...(options.tags ? { tags: options.tags } : {}),
    },
    sender,
    to,
    BACKENDS,
  );
}

/** A client over the real relay. */
export class XpClient {
  readonly pool: RelayPool;

  private constructor(pool: RelayPool) {
    this.pool = pool;
  }

  /** Connects to the relays. */
  static async open(urls: readonly string[]): Promise<XpClient> {
    const pool = await RelayPool.open({ urls, reconnect: { initialMs: 200, maxMs: 1000 } });
    await pool.waitForConnection(15_000);
    return new XpClient(pool);
  }

  /** The newest `xp.endpoint.announce` of `key` that arrives within `timeoutMs`, or undefined. */
  async announce(key: string, timeoutMs: number, since = 0): Promise<XpEvent | undefined> {
    const found: XpEvent[] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, timeoutMs);
      const sub = this.pool.subscribe([{ kinds: ['xp.endpoint.announce'], authors: [key], since }], {
        onEvent: (event) => {
          found.push(event);
          finish();
        },
      });
      function finish() {
        clearTimeout(timer);
        sub.close();
        resolve();
      }
    });
    return found.sort((a, b) => b.created_at - a.created_at)[0];
  }

  /** The endpoint's public identity, from its announce (the `x25519` field or tag). */
  async resolve(
    key: string,
    timeoutMs: number,
  ): Promise<{ keys: PublicIdentity; announce: XpEvent } | undefined> {
    const announce = await this.announce(key, timeoutMs);
    if (!announce) return undefined;
    let x25519: unknown;
    try {
      x25519 = (JSON.parse(announce.content) as { x25519?: unknown }).x25519;
    } catch {
      x25519 = undefined;
    }
    if (typeof x25519 !== 'string') x25519 = getTag(announce, 'x25519');
    if (typeof x25519 !== 'string') return undefined;
    return {
      keys: { ed25519: key as PublicIdentity['ed25519'], x25519: x25519 as X25519KeyString },
      announce,
    };
  }

  /**
   * Sends `request` (through the real relay, or the injector when given) and collects the answers
   * `from` sends naming it, for `waitMs` after the first one or until `timeoutMs` when none comes.
   */
  async exchange(
    request: XpEvent,
    from: string,
    reader: Identity,
    options: {
      timeoutMs: number;
      injector?: InjectorRelay | undefined;
      raw?: Record<string, unknown>;
      settleMs?: number;
    },
  ): Promise<Exchange> {
    const answers: XpEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      let settle: ReturnType<typeof setTimeout> | undefined;
      const timer = setTimeout(finish, options.timeoutMs);
      const sub = this.pool.subscribe([{ '#e': [request.id], authors: [from] }], {
        onEvent: (event) => {
          if (getTag(event, 'e') !== request.id) return;
          answers.push(event);
          if (options.settleMs === undefined) finish();
          else settle ??= setTimeout(finish, options.settleMs);
        },
      });
      function finish() {
        clearTimeout(timer);
        if (settle) clearTimeout(settle);
        sub.close();
        resolve();
      }
      if (options.injector) {
        // Give the subscription a moment to reach the relay before the answer can exist.
        setTimeout(
          () => options.injector?.inject(options.raw ?? (request as unknown as Record<string, unknown>)),
          100,
        );
      } else {
        this.pool.publish(request).catch((error: unknown) => {
          finish();
          reject(error);
        });
      }
    });
    const answer = answers[0];
    if (!answer) return { request, answer, answers, payload: undefined };
    try {
      const text = getTag(answer, 'x25519') ? openEvent(answer, reader, BACKENDS).plaintext : answer.content;
      return { request, answer, answers, payload: JSON.parse(text) as unknown };
    } catch (error) {
      return { request, answer, answers, payload: undefined, openError: (error as Error).message };
    }
  }

  /** A sealed call; see {@link exchange}. */
  call(
    sender: Identity,
    to: PublicIdentity,
    kind: string,
    payload: unknown,
    timeoutMs = 20_000,
    tags?: readonly (readonly string[])[],
  ): Promise<Exchange> {
    return this.exchange(sealRequest(sender, to, kind, payload, tags ? { tags } : {}), to.ed25519, sender, {
      timeoutMs,
    });
  }

  /** Every contract of `to`'s catalog (`xp.schema.catalog`, plaintext request, paged). */
  async catalog(
    sender: Identity,
    to: string,
    timeoutMs = 20_000,
  ): Promise<{ contracts: Record<string, unknown>[]; pages: Exchange[] }> {
    const contracts: Record<string, unknown>[] = [];
    const pages: Exchange[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const now = nowSeconds();
      const request = signEvent(
        createEventTemplate({
          kind: 'xp.schema.catalog',
          content: JSON.stringify(cursor === undefined ? { limit: 500 } : { cursor, limit: 500 }),
          // Two pages asked the same second must stay two events (docs/protocol.md §4.1).
          tags: [
            ['p', to],
            ['nonce', randomBytes(16).toString('hex')],
          ],
          created_at: now,
          expiration: now + 60,
        }),
        sender.ed25519.secretKey,
        nodeSignatures,
      );
      const exchange = await this.exchange(request, to, sender, { timeoutMs });
      pages.push(exchange);
      const body = exchange.payload as { contracts?: unknown; next_cursor?: unknown } | undefined;
      if (!body || !Array.isArray(body.contracts)) return { contracts, pages };
      contracts.push(...(body.contracts as Record<string, unknown>[]));
      if (typeof body.next_cursor !== 'string') break;
      cursor = body.next_cursor;
    }
    return { contracts, pages };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Whether `event` verifies under docs/protocol.md §3 (shape, id, signature). */
export function verifies(event: unknown): boolean {
  return verifyEvent(event, nodeSignatures).ok;
}

/** Text for a failure: an event shortened to what a reader needs. */
export function describeEvent(event: XpEvent | undefined): string {
  if (!event) return 'nothing';
  return `${event.kind} (id ${event.id.slice(0, 12)}…, from ${event.pubkey.slice(0, 20)}…)`;
}

export { BACKENDS };
