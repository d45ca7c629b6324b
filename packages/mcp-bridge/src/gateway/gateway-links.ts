/**
 * One client's links to the upstream servers, by source: each opened the first time the client
 * needs that server (again after it ended), given the client's log level when it opens, and all
 * closed together when the client goes. Used by the gateway (one set per face session) and by the
 * XProtocol endpoint (one set per caller session, docs/protocol.md §10.5).
 * @module
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import type { BridgeLogger } from '../logger.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';
import { _GatewayLink, type _LinkClient } from './gateway-link.js';

/** Options of {@link _LinkSet}. */
export interface _LinkSetOptions {
  client: _LinkClient;
  /** How to reach the server of `source`; undefined for an unknown source. */
  transportOf: (source: string) => UpstreamTransport | undefined;
  /** Sent in `initialize` when the client's own `clientInfo` is not known. */
  clientInfo: { name: string; version: string };
  /** Timeout of each forwarded request, in ms (restarted by progress). */
  timeoutMs: number;
  /** The longest opening one link may take, in ms (default 30 s; see `_GatewayLinkOptions`). */
  connectTimeoutMs?: number;
  logger: BridgeLogger;
  /**
   * The links serve several clients (2026-07-28 requests, which have no session): a server's
   * message that no progress token ties to one request reaches a client only while that client's
   * request is the only one on the link.
   */
  shared?: boolean;
  /**
   * Takes a share of the upstream processes of `source` for a link about to start one (a stdio
   * upstream); throws the refusal (a `ProtocolError`) when none is left. Returns how to give it
   * back, called once when the link's session is over.
   */
  admitProcess?: (source: string) => () => void;
  /**
   * The links serve a 2025-11-25 client: a Streamable HTTP server set to another revision (`auto`,
   * `2026-07-28`) is first asked for a 2025-11-25 session, and spoken to in its configured revision
   * only when it refuses one. A server speaking both revisions then gives this client its
   * 2025-11-25 behaviour (`logging/setLevel`, `resources/subscribe`, which 2026-07-28 removed).
   */
  legacyClient?: boolean;
}

/** A client's links, by source. */
export class _LinkSet {
  readonly #o: _LinkSetOptions;
  readonly #links = new Map<string, Promise<_GatewayLink>>();
  /** The level the client last set (`logging/setLevel`), given to links opened later. */
  level: string | undefined;
  #closed = false;

  constructor(options: _LinkSetOptions) {
    this.#o = options;
  }

  /** How many links are open or opening. */
  get size(): number {
    return this.#links.size;
  }

  /** True when a link to `source` is open or opening. */
  has(source: string): boolean {
    return this.#links.has(source);
  }

  /** The client's link to `source`, opened on first use (and again after it ended). */
  async get(source: string): Promise<_GatewayLink> {
    if (this.#closed) throw new ProtocolError(-32603, 'the MCP session is closing');
    const known = this.#links.get(source);
    if (known) {
      const link = await known.catch(() => undefined);
      if (link && !link.closed) return link;
      if (this.#links.get(source) === known) this.#links.delete(source);
      else return this.get(source);
    }
    const transport = this.#o.transportOf(source);
    if (!transport) throw new ProtocolError(-32603, `no upstream MCP server named ${source}`);
    const onEnd = _processShare(this.#o.admitProcess, source, transport);
    const open = (spoken: UpstreamTransport) =>
      _GatewayLink.open({
        source,
        transport: spoken,
        face: this.#o.client,
        clientInfo: this.#o.clientInfo,
        timeoutMs: this.#o.timeoutMs,
        ...(this.#o.connectTimeoutMs !== undefined && { connectTimeoutMs: this.#o.connectTimeoutMs }),
        logger: this.#o.logger,
        ...(this.#o.shared && { shared: true }),
        ...(onEnd && { onEnd }),
      });
    const legacy = this.#o.legacyClient ? _legacyTransport(transport) : undefined;
    const opening = (legacy ? open(legacy).catch(() => open(transport)) : open(transport)).then(
      async (link) => {
        if (this.level !== undefined && link.capabilities?.logging !== undefined) {
          await link.requestAlone('logging/setLevel', { level: this.level }).catch(() => {});
        }
        return link;
      },
    );
    this.#links.set(source, opening);
    try {
      const link = await opening;
      if (this.#closed) {
        await link.close();
        throw new ProtocolError(-32603, 'the MCP session is closing');
      }
      return link;
    } catch (error) {
      onEnd?.();
      if (this.#links.get(source) === opening) this.#links.delete(source);
      if (ProtocolError.isInstance(error)) throw error;
      throw new ProtocolError(-32603, (error as Error).message, { xp_code: 'UPSTREAM_UNAVAILABLE' });
    }
  }

  /** Sends a notification of the client's to every open link (`notifications/roots/list_changed`). */
  notifyAll(method: string): void {
    for (const link of this.#links.values())
      void link.then(
        (l) => l.notify(method),
        () => {},
      );
  }

  /** Ends every link; later `get`s are refused. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const links = [...this.#links.values()];
    this.#links.clear();
    await Promise.allSettled(links.map(async (link) => (await link).close()));
  }
}

/**
 * The share of `source`'s upstream processes a new link takes when it starts one (a stdio
 * upstream), as a give-back that runs once; nothing for a link that starts no process. Throws
 * the refusal when no share is left.
 */
export function _processShare(
  admit: ((source: string) => () => void) | undefined,
  source: string,
  transport: UpstreamTransport,
): (() => void) | undefined {
  if (!admit || transport.type !== 'stdio') return undefined;
  let giveBack: (() => void) | undefined = admit(source);
  return () => {
    giveBack?.();
    giveBack = undefined;
  };
}

/**
 * `transport` asking for a 2025-11-25 session, when it names another revision (a Streamable HTTP
 * server only: a stdio child or an in-process server is one session either way).
 */
function _legacyTransport(transport: UpstreamTransport): UpstreamTransport | undefined {
  if (transport.type !== 'streamable_http' || transport.revision === undefined) return undefined;
  const { revision: _configured, ...legacy } = transport;
  return legacy;
}
