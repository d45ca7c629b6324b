// The types of strict-client.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * A new identity (§1, §5), or the one of fixed secrets.
 *
 * @param {{ ed25519?: Buffer, x25519?: Buffer }} [secrets]
 * @returns {import('./sealed-event.mjs').Identity}
 */
export function newIdentity(secrets?: {
  ed25519?: Buffer;
  x25519?: Buffer;
}): import('./sealed-event.mjs').Identity;
export function nowSeconds(): number;
/** An XProtocol client on one relay connection. */
export class StrictClient {
  /** @param {string} url @param {import('./sealed-event.mjs').Identity} identity */
  static connect(url: string, identity: import('./sealed-event.mjs').Identity): Promise<StrictClient>;
  /** @param {RelayConnection} connection @param {import('./sealed-event.mjs').Identity} identity */
  constructor(connection: RelayConnection, identity: import('./sealed-event.mjs').Identity);
  connection: RelayConnection;
  identity: import('./sealed-event.mjs').Identity;
  /** @type {ReturnType<typeof readRelayMessage>[]} */
  pending: ReturnType<typeof readRelayMessage>[];
  /** The next relay message, read strictly (§9). @param {number} timeoutMs */
  nextMessage(timeoutMs: number): Promise<{
    [k: string]: unknown;
    type: string;
  }>;
  /**
   * Reads messages until `want` picks one; the others are kept for later readers.
   *
   * @template T @param {(m: { type: string, [k: string]: unknown }) => T | undefined} want @param {number} timeoutMs
   * @returns {Promise<T>}
   */
  waitFor<T>(
    want: (m: { type: string; [k: string]: unknown }) => T | undefined,
    timeoutMs: number,
  ): Promise<T>;
  /**
   * Publishes an event and resolves with the relay's OK (§9.1: every EVENT gets exactly one).
   *
   * @param {import('./event.mjs').XpEvent} event @param {number} [timeoutMs]
   * @returns {Promise<{ type: 'OK', id: string, accepted: boolean, reason: string }>}
   */
  publish(
    event: import('./event.mjs').XpEvent,
    timeoutMs?: number,
  ): Promise<{
    type: 'OK';
    id: string;
    accepted: boolean;
    reason: string;
  }>;
  /**
   * Opens a subscription and resolves with its stored events, once EOSE came (§9.3).
   *
   * @param {string} subId @param {object[]} filters @param {number} [timeoutMs]
   * @returns {Promise<unknown[]>}
   */
  subscribe(subId: string, filters: object[], timeoutMs?: number): Promise<unknown[]>;
  /** @param {string} subId */
  unsubscribe(subId: string): void;
  /**
   * The next live event of a subscription that `accept` takes; every event is verified first
   * (§4 steps 1–3), and one that fails is dropped, as a receiver does.
   *
   * @param {string} subId @param {(event: import('./event.mjs').XpEvent) => boolean} accept @param {number} timeoutMs
   * @returns {Promise<import('./event.mjs').XpEvent>}
   */
  nextEvent(
    subId: string,
    accept: (event: import('./event.mjs').XpEvent) => boolean,
    timeoutMs: number,
  ): Promise<import('./event.mjs').XpEvent>;
  /**
   * Sends a request to an endpoint and resolves with its answer (§10.7: the first event naming
   * the request in `e`, signed by the endpoint, of kind `{kind}.result` or `xp.error`).
   *
   * @param {import('./event.mjs').XpEvent} request @param {string} endpoint its ed25519 key string
   * @param {number} [timeoutMs]
   * @returns {Promise<import('./event.mjs').XpEvent>}
   */
  request(
    request: import('./event.mjs').XpEvent,
    endpoint: string,
    timeoutMs?: number,
  ): Promise<import('./event.mjs').XpEvent>;
  /**
   * A sealed call (§6.3, §10.9): the answer opened and verified, with its payload parsed.
   *
   * @param {{ ed25519: string, x25519: string }} endpoint
   * @param {{ kind: string, payload?: unknown, plaintext?: string, expiresIn?: number, extraTags?: string[][] }} call
   * @param {number} [timeoutMs]
   * @returns {Promise<{ request: import('./event.mjs').XpEvent, answer: import('./event.mjs').XpEvent, payload: unknown }>}
   */
  sealedCall(
    endpoint: {
      ed25519: string;
      x25519: string;
    },
    call: {
      kind: string;
      payload?: unknown;
      plaintext?: string;
      expiresIn?: number;
      extraTags?: string[][];
    },
    timeoutMs?: number,
  ): Promise<{
    request: import('./event.mjs').XpEvent;
    answer: import('./event.mjs').XpEvent;
    payload: unknown;
  }>;
  /**
   * A plaintext catalog request (§10.8, §4.1: with a `nonce` tag so it is its own event).
   *
   * @param {string} endpoint its ed25519 key string @param {string} content
   * @returns {Promise<{ request: import('./event.mjs').XpEvent, answer: import('./event.mjs').XpEvent }>}
   */
  catalogPage(
    endpoint: string,
    content: string,
  ): Promise<{
    request: import('./event.mjs').XpEvent;
    answer: import('./event.mjs').XpEvent;
  }>;
  /**
   * The announce of `endpoint` a caller reads (§10.3, "Which announce"), asked again every 200 ms
   * until a relay holds one: an endpoint that just started may not have stored its first yet.
   *
   * @param {string} endpoint its ed25519 key string @param {number} [attempts]
   */
  announceOf(
    endpoint: string,
    attempts?: number,
  ): Promise<{
    event: import('./event.mjs').XpEvent;
    payload: import('./announce.mjs').AnnouncePayload;
  }>;
  close(): void;
}

import { RelayConnection } from './connection.mjs';
import { readRelayMessage } from './relay-messages.mjs';
