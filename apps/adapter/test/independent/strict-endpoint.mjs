/**
 * A native XProtocol endpoint, written from docs/protocol.md alone: it publishes its announce
 * (§10.3), answers catalog requests in the clear (§10.8), runs sealed tool calls of its catalog's
 * kinds and answers them sealed with the answer tags of §10.7, and refuses what it cannot serve
 * with a sealed `xp.error` (§10.2). It imports nothing from this repository: with the strict
 * client beside it, it is the other half of an independent implementation, so the adapter's
 * caller side (an MCP face over `xprotocol_sources`) is proven against code it does not share.
 *
 * @module
 */
import { canonicalJson, parseStrictJson } from './canonical-json.mjs';
import { catalogPage } from './discovery.mjs';
import { signEvent, tagsNamed } from './event.mjs';
import { openEvent, sealEvent } from './sealed-event.mjs';
import { nowSeconds, StrictClient } from './strict-client.mjs';

/** How long an answer lives when its request gives no later expiration (§10.7: ours, an hour). */
const ANSWER_LIFETIME_SECONDS = 3600;
/** The announce's own lifetime (§10.3: 15 minutes). */
const ANNOUNCE_LIFETIME_SECONDS = 900;

/**
 * @typedef {{ content: object[], structuredContent?: object, isError?: boolean }} CallToolResult
 * @typedef {(args: Record<string, unknown>, sender: string) => CallToolResult} ToolHandler
 */

/** An endpoint on one relay connection; {@link StrictEndpoint.start} it, then {@link StrictEndpoint.close}. */
export class StrictEndpoint {
  /**
   * Connects, publishes the announce and starts answering.
   *
   * @param {string} relayUrl
   * @param {import('./sealed-event.mjs').Identity} identity
   * @param {{ displayName: string, catalog: { kind: string }[], tools: Record<string, ToolHandler> }} options
   */
  static async start(relayUrl, identity, options) {
    const client = await StrictClient.connect(relayUrl, identity);
    const endpoint = new StrictEndpoint(client, relayUrl, options);
    // Subscribe first, so no request sent after the announce is missed.
    await client.subscribe('inbox', [{ '#p': [identity.ed25519.publicKey], since: nowSeconds() - 5 }]);
    const ok = await client.publish(endpoint.#announce());
    if (!ok.accepted) throw new Error(`the relay refused the announce: ${ok.reason}`);
    endpoint.#loop = endpoint.#serve();
    return endpoint;
  }

  /** @type {Promise<void> | undefined} */
  #loop;
  #closed = false;
  /** Ids of requests already handled: a copy a relay delivers twice is not run twice. */
  #seen = new Set();
  /** @type {{ kind: string, args: unknown, sender: string }[]} every call run, in order */
  calls = [];

  /**
   * @param {StrictClient} client @param {string} relayUrl
   * @param {{ displayName: string, catalog: { kind: string }[], tools: Record<string, ToolHandler> }} options
   */
  constructor(client, relayUrl, options) {
    this.client = client;
    this.relayUrl = relayUrl;
    this.options = options;
    this.catalog = [...options.catalog].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  }

  /** The endpoint's keys, as a caller addresses it. */
  get keys() {
    return { ed25519: this.client.identity.ed25519.publicKey, x25519: this.client.identity.x25519.publicKey };
  }

  /** The announce of §10.3: a native endpoint's (no MCP or XProtocol sources), in the clear. */
  #announce() {
    const now = nowSeconds();
    const payload = {
      display_name: this.options.displayName,
      adapter_version: '1.0.0',
      x25519: this.keys.x25519,
      relays: [this.relayUrl],
      mcp_sources: [],
      xprotocol_sources: [],
      counts: {
        mcp_sources: 0,
        xprotocol_sources: 0,
        schemas: this.catalog.length,
        tools: 0,
        prompts: 0,
        low_quality_schemas: 0,
      },
      low_quality_schemas: [],
    };
    return signEvent(this.client.identity.ed25519, {
      created_at: now,
      kind: 'xp.endpoint.announce',
      tags: [
        ['x25519', this.keys.x25519],
        ['expiration', String(now + ANNOUNCE_LIFETIME_SECONDS)],
      ],
      content: canonicalJson(payload),
    });
  }

  async #serve() {
    while (!this.#closed) {
      let event;
      try {
        event = await this.client.nextEvent('inbox', (e) => !this.#seen.has(e.id), 60_000);
      } catch {
        continue; // a quiet minute, or the connection closed (then the loop ends)
      }
      this.#seen.add(event.id);
      const answer = this.#answer(event);
      if (answer !== undefined) await this.client.publish(answer);
    }
  }

  /**
   * The answer to one verified event addressed to this endpoint, or undefined to drop it.
   *
   * @param {import('./event.mjs').XpEvent} request
   */
  #answer(request) {
    const now = nowSeconds();
    const expirationTag = tagsNamed(request, 'expiration')[0];
    const requested = expirationTag ? Number(expirationTag[1]) : Number.NaN;
    // §4: a request already expired is not run (answered EXPIRED when sealed, §10.7's lifetime).
    const expired = Number.isFinite(requested) && requested <= now;
    const expiration =
      Number.isFinite(requested) && requested > now ? requested : now + ANSWER_LIFETIME_SECONDS;
    const sealed = tagsNamed(request, 'x25519').length > 0;
    if (request.kind === 'xp.schema.catalog' && !sealed) {
      if (expired) return undefined;
      let content;
      try {
        content = catalogPage(this.catalog, request.content);
      } catch {
        return undefined; // a refused request in the clear gets no answer (§10.8)
      }
      return signEvent(this.client.identity.ed25519, {
        created_at: now,
        kind: 'xp.schema.catalog.result',
        tags: [
          ['p', request.pubkey],
          ['e', request.id],
          ['expiration', String(expiration)],
        ],
        content,
      });
    }
    if (!sealed) return undefined;
    let opened;
    try {
      opened = openEvent(request, this.client.identity);
    } catch {
      return undefined; // does not decrypt, or not addressed to us: dropped (§4 step 3a, 9)
    }
    const caller = { ed25519: request.pubkey, x25519: tagsNamed(request, 'x25519')[0][1] };
    const reply = (kind, payload) =>
      sealEvent(this.client.identity, caller, {
        kind,
        created_at: now,
        payload,
        replyTo: request.id,
        expiration,
      });
    const error = (code, message) => reply('xp.error', { code, message });
    if (expired) return error('EXPIRED', `the request expired at ${requested}`);
    if (request.kind === 'xp.schema.catalog') {
      try {
        return signEvent(this.client.identity.ed25519, {
          created_at: now,
          kind: 'xp.schema.catalog.result',
          tags: [
            ['p', request.pubkey],
            ['e', request.id],
            ['expiration', String(expiration)],
          ],
          content: catalogPage(this.catalog, opened.plaintext),
        });
      } catch (e) {
        return error('SCHEMA_VIOLATION', /** @type {Error} */ (e).message);
      }
    }
    const handler = this.options.tools[request.kind];
    if (handler === undefined) return error('NOT_FOUND', `${request.kind} is not served here`);
    let args;
    try {
      args = parseStrictJson(opened.plaintext);
    } catch {
      return error('SCHEMA_VIOLATION', 'the payload is not JSON');
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      return error('SCHEMA_VIOLATION', 'the arguments must be a JSON object');
    this.calls.push({ kind: request.kind, args, sender: request.pubkey });
    return reply(
      `${request.kind}.result`,
      handler(/** @type {Record<string, unknown>} */ (args), request.pubkey),
    );
  }

  /** Stops answering and closes the connection. */
  async close() {
    this.#closed = true;
    this.client.close();
    await this.#loop;
  }
}
