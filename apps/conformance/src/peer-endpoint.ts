/**
 * A second XProtocol endpoint that the suite runs itself: the adapter under test lists it in
 * `xprotocol_sources`, so its MCP face shows the peer's tools. The peer publishes an announce,
 * answers catalog requests, echoes `conf.peer.echo` and answers `conf.peer.fail_with` with the
 * `xp.error` code the payload asks for — which lets the suite check, from the MCP side, every row
 * of the error table (docs/conformance.md, "Error translation").
 * @module
 */
import {
  createEventTemplate,
  getTag,
  type Identity,
  isKeyString,
  openEvent,
  sealEvent,
  signEvent,
  type X25519KeyString,
  type XpEvent,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { RelayPool, type Subscription } from '@xprotocol/relay-client';
import { translateSource } from '@xprotocol/translate';

/** The peer's namespace; its tools are `conf.peer.echo` and `conf.peer.fail_with`. */
export const PEER_NAMESPACE = 'conf.peer';
/** The `mcp_tool_prefix` the suite's configuration gives the peer. */
export const PEER_PREFIX = 'peer_';

const PEER_TOOLS = [
  {
    name: 'echo',
    description:
      'Return the given text unchanged as the tool result. Use it to check that a call travels to the peer endpoint and back.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'fail_with',
    description:
      'Answer with the XProtocol error whose code is given, and the given message. Use it to check how an adapter maps XProtocol errors to MCP errors.',
    inputSchema: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code'],
    },
  },
];

const BACKENDS = { signatures: nodeSignatures, cipher: nodeCipher };

/** The suite's own endpoint on the real relay. */
export class PeerEndpoint {
  readonly identity: Identity;
  /** Every call the peer received (kind and payload). */
  readonly calls: { kind: string; payload: unknown }[] = [];
  readonly #pool: RelayPool;
  readonly #contracts: Record<string, unknown>[];
  #subscription: Subscription | undefined;

  private constructor(pool: RelayPool, identity: Identity) {
    this.identity = identity;
    this.#pool = pool;
    const translated = translateSource({
      name: 'conformance-peer',
      namespace: PEER_NAMESPACE,
      tools: PEER_TOOLS,
      adapterVersion: '1.0.0',
    });
    this.#contracts = translated.contracts as unknown as Record<string, unknown>[];
  }

  /** Connects, subscribes to what is addressed to it and publishes its announce. */
  static async start(relayUrl: string, identity: Identity): Promise<PeerEndpoint> {
    const pool = await RelayPool.open({ urls: [relayUrl], reconnect: { initialMs: 200, maxMs: 1000 } });
    await pool.waitForConnection(15_000);
    const peer = new PeerEndpoint(pool, identity);
    peer.#subscription = pool.subscribe([{ '#p': [peer.identity.keys.ed25519] }], {
      onEvent: (event) => {
        peer.#answer(event).catch(() => undefined);
      },
    });
    const now = Math.floor(Date.now() / 1000);
    await pool.publish(
      signEvent(
        createEventTemplate({
          kind: 'xp.endpoint.announce',
          // Every field of a conformant announce (docs/translation.md §7), so strict readers accept it.
          content: JSON.stringify({
            display_name: 'XProtocol conformance peer',
            adapter_version: '1.0.0',
            x25519: peer.identity.keys.x25519,
            relays: [relayUrl],
            mcp_sources: [],
            xprotocol_sources: [],
            counts: {
              mcp_sources: 0,
              xprotocol_sources: 0,
              schemas: PEER_TOOLS.length,
              tools: PEER_TOOLS.length,
              prompts: 0,
              low_quality_schemas: 0,
            },
            low_quality_schemas: [],
          }),
          tags: [['x25519', peer.identity.keys.x25519]],
          created_at: now,
        }),
        peer.identity.ed25519.secretKey,
        nodeSignatures,
      ),
    );
    return peer;
  }

  async #answer(event: XpEvent): Promise<void> {
    if (event.kind.endsWith('.result') || event.kind === 'xp.error') return;
    const now = Math.floor(Date.now() / 1000);
    if (event.kind === 'xp.schema.catalog') {
      const answer = signEvent(
        createEventTemplate({
          kind: 'xp.schema.catalog.result',
          content: JSON.stringify({ contracts: this.#contracts, total: this.#contracts.length }),
          tags: [
            ['p', event.pubkey],
            ['e', event.id],
          ],
          created_at: now,
          expiration: now + 300,
        }),
        this.identity.ed25519.secretKey,
        nodeSignatures,
      );
      await this.#pool.publish(answer);
      return;
    }
    const x25519 = getTag(event, 'x25519');
    if (!x25519 || !isKeyString(x25519, 'x25519')) return;
    const opened = openEvent(event, this.identity, BACKENDS);
    const payload = JSON.parse(opened.plaintext) as Record<string, unknown>;
    this.calls.push({ kind: event.kind, payload });
    const to = { ed25519: event.pubkey as Identity['keys']['ed25519'], x25519: x25519 as X25519KeyString };
    const reply =
      event.kind === `${PEER_NAMESPACE}.fail_with`
        ? {
            kind: 'xp.error',
            payload: {
              code: String(payload.code),
              message: String(payload.message ?? `peer error ${String(payload.code)}`),
            },
          }
        : event.kind === `${PEER_NAMESPACE}.echo`
          ? {
              kind: `${event.kind}.result`,
              payload: { content: [{ type: 'text', text: String(payload.text) }], isError: false },
            }
          : { kind: 'xp.error', payload: { code: 'NOT_FOUND', message: `no schema ${event.kind} here` } };
    await this.#pool.publish(
      sealEvent(
        { ...reply, replyTo: event.id, created_at: now, expiration: now + 300 },
        this.identity,
        to,
        BACKENDS,
      ),
    );
  }

  async close(): Promise<void> {
    this.#subscription?.close();
    await this.#pool.close();
  }
}
