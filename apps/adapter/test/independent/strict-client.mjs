/**
 * The independent strict XProtocol client: identities, publishing with its OK, subscriptions,
 * and request/answer over a relay (sealed or in the clear), written from docs/protocol.md alone
 * (§2–§6 through its sibling modules, §9 for the relay, §10.3, §10.7 and §10.8 for the endpoint).
 * It imports only node:* built-ins, `ws` and its sibling modules, nothing from this repository.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chooseAnnounce } from './announce.mjs';
import { parseStrictJson, RuleError } from './canonical-json.mjs';
import { RelayConnection } from './connection.mjs';
import { ed25519FromSeed } from './ed25519.mjs';
import { eventJson, signEvent, tagsNamed, verifyEvent } from './event.mjs';
import { closeFrame, eventFrame, readRelayMessage, reqFrame } from './relay-messages.mjs';
import { openEvent, sealEvent } from './sealed-event.mjs';
import { x25519FromSecret } from './x25519.mjs';

/**
 * A new identity (§1, §5), or the one of fixed secrets.
 *
 * @param {{ ed25519?: Buffer, x25519?: Buffer }} [secrets]
 * @returns {import('./sealed-event.mjs').Identity}
 */
export function newIdentity(secrets = {}) {
  return {
    ed25519: ed25519FromSeed(secrets.ed25519 ?? randomBytes(32)),
    x25519: x25519FromSecret(secrets.x25519 ?? randomBytes(32)),
  };
}

/** Unix seconds now. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An XProtocol client on one relay connection. */
export class StrictClient {
  /** @param {RelayConnection} connection @param {import('./sealed-event.mjs').Identity} identity */
  constructor(connection, identity) {
    this.connection = connection;
    this.identity = identity;
    /** @type {ReturnType<typeof readRelayMessage>[]} */
    this.pending = [];
  }

  /** @param {string} url @param {import('./sealed-event.mjs').Identity} identity */
  static async connect(url, identity) {
    return new StrictClient(await RelayConnection.open(url), identity);
  }

  /** The next relay message, read strictly (§9). @param {number} timeoutMs */
  async nextMessage(timeoutMs) {
    const frame = await this.connection.next(timeoutMs);
    if (frame === null) throw new Error('the relay closed the connection');
    return readRelayMessage(frame);
  }

  /**
   * Reads messages until `want` picks one; the others are kept for later readers.
   *
   * @template T @param {(m: { type: string, [k: string]: unknown }) => T | undefined} want @param {number} timeoutMs
   * @returns {Promise<T>}
   */
  async waitFor(want, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < this.pending.length; i++) {
      const found = want(this.pending[i]);
      if (found !== undefined) {
        this.pending.splice(i, 1);
        return found;
      }
    }
    for (;;) {
      const m = await this.nextMessage(Math.max(1, deadline - Date.now()));
      const found = want(m);
      if (found !== undefined) return found;
      this.pending.push(m);
    }
  }

  /**
   * Publishes an event and resolves with the relay's OK (§9.1: every EVENT gets exactly one).
   *
   * @param {import('./event.mjs').XpEvent} event @param {number} [timeoutMs]
   * @returns {Promise<{ type: 'OK', id: string, accepted: boolean, reason: string }>}
   */
  async publish(event, timeoutMs = 10_000) {
    this.connection.send(eventFrame(eventJson(event)));
    return this.waitFor((m) => (m.type === 'OK' && m.id === event.id ? m : undefined), timeoutMs);
  }

  /**
   * Opens a subscription and resolves with its stored events, once EOSE came (§9.3).
   *
   * @param {string} subId @param {object[]} filters @param {number} [timeoutMs]
   * @returns {Promise<unknown[]>}
   */
  async subscribe(subId, filters, timeoutMs = 10_000) {
    this.connection.send(reqFrame(subId, filters));
    /** @type {unknown[]} */
    const stored = [];
    await this.waitFor((m) => {
      if (m.subId !== subId) return undefined;
      if (m.type === 'CLOSED') throw new RuleError('§9.3', `the relay refused the subscription: ${m.reason}`);
      if (m.type === 'EVENT') stored.push(m.event);
      return m.type === 'EOSE' ? true : undefined;
    }, timeoutMs);
    return stored;
  }

  /** @param {string} subId */
  unsubscribe(subId) {
    this.connection.send(closeFrame(subId));
  }

  /**
   * The next live event of a subscription that `accept` takes; every event is verified first
   * (§4 steps 1–3), and one that fails is dropped, as a receiver does.
   *
   * @param {string} subId @param {(event: import('./event.mjs').XpEvent) => boolean} accept @param {number} timeoutMs
   * @returns {Promise<import('./event.mjs').XpEvent>}
   */
  nextEvent(subId, accept, timeoutMs) {
    return this.waitFor((m) => {
      if (m.type !== 'EVENT' || m.subId !== subId) return undefined;
      let event;
      try {
        event = verifyEvent(m.event);
      } catch {
        return undefined;
      }
      return accept(event) ? event : undefined;
    }, timeoutMs);
  }

  /**
   * Sends a request to an endpoint and resolves with its answer (§10.7: the first event naming
   * the request in `e`, signed by the endpoint, of kind `{kind}.result` or `xp.error`).
   *
   * @param {import('./event.mjs').XpEvent} request @param {string} endpoint its ed25519 key string
   * @param {number} [timeoutMs]
   * @returns {Promise<import('./event.mjs').XpEvent>}
   */
  async request(request, endpoint, timeoutMs = 20_000) {
    const subId = `answer-${request.id.slice(0, 16)}`;
    await this.subscribe(subId, [
      { '#e': [request.id], authors: [endpoint], kinds: [`${request.kind}.result`, 'xp.error'] },
    ]);
    try {
      const ok = await this.publish(request);
      if (!ok.accepted) throw new Error(`the relay refused the request: ${ok.reason}`);
      return await this.nextEvent(
        subId,
        (e) => e.pubkey === endpoint && tagsNamed(e, 'e').some((t) => t[1] === request.id),
        timeoutMs,
      );
    } finally {
      this.unsubscribe(subId);
    }
  }

  /**
   * A sealed call (§6.3, §10.9): the answer opened and verified, with its payload parsed.
   *
   * @param {{ ed25519: string, x25519: string }} endpoint
   * @param {{ kind: string, payload?: unknown, plaintext?: string, expiresIn?: number, extraTags?: string[][] }} call
   * @param {number} [timeoutMs]
   * @returns {Promise<{ request: import('./event.mjs').XpEvent, answer: import('./event.mjs').XpEvent, payload: unknown }>}
   */
  async sealedCall(endpoint, call, timeoutMs) {
    const now = nowSeconds();
    const request = sealEvent(this.identity, endpoint, {
      kind: call.kind,
      created_at: now,
      payload: call.payload,
      plaintext: call.plaintext,
      expiration: now + (call.expiresIn ?? 60),
      extraTags: call.extraTags,
    });
    const answer = await this.request(request, endpoint.ed25519, timeoutMs);
    const opened = openEvent(answer, this.identity);
    return { request, answer, payload: parseStrictJson(opened.plaintext) };
  }

  /**
   * A plaintext catalog request (§10.8, §4.1: with a `nonce` tag so it is its own event).
   *
   * @param {string} endpoint its ed25519 key string @param {string} content
   * @returns {Promise<{ request: import('./event.mjs').XpEvent, answer: import('./event.mjs').XpEvent }>}
   */
  async catalogPage(endpoint, content) {
    const now = nowSeconds();
    const request = signEvent(this.identity.ed25519, {
      created_at: now,
      kind: 'xp.schema.catalog',
      tags: [
        ['p', endpoint],
        ['nonce', randomBytes(16).toString('hex')],
        ['expiration', String(now + 60)],
      ],
      content,
    });
    const answer = await this.request(request, endpoint);
    return { request, answer };
  }

  /**
   * The announce of `endpoint` a caller reads (§10.3, "Which announce"), asked again every 200 ms
   * until a relay holds one: an endpoint that just started may not have stored its first yet.
   *
   * @param {string} endpoint its ed25519 key string @param {number} [attempts]
   */
  async announceOf(endpoint, attempts = 150) {
    let announces = [];
    for (let attempt = 0; announces.length === 0 && attempt < attempts; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      const subId = `announce-${attempt}`;
      announces = await this.subscribe(subId, [{ kinds: ['xp.endpoint.announce'], authors: [endpoint] }]);
      this.unsubscribe(subId);
    }
    return chooseAnnounce(announces);
  }

  close() {
    this.connection.close();
  }
}
