/**
 * The endpoint's spans of a tool call (docs/operating.md, "Traces"): a server span from the
 * moment a verified request of a tool kind comes in until it is answered, the child of the
 * caller's span its encrypted `trace` tag names (docs/protocol.md §10.12) or the root of a new
 * trace; and under it a client span of the upstream request, whose `traceparent` the server gets
 * in `params._meta` (the MCP convention). Reserved kinds (catalog, discovery, `xp.mcp.*`), kinds the
 * catalog does not serve (answers to this adapter's own calls) and dropped events get no span.
 * @module
 */
import type { CipherBackend, Identity, XpEvent } from '@xprotocol/crypto';
import { isReservedKind } from '@xprotocol/wire';
import { _openTraceTag } from '../caller/xp-trace-tag.js';
import { parseTraceparent } from '../observe/trace-context.js';
import type { Span, Tracer } from '../observe/tracer.js';
import type { EndpointCatalog } from './endpoint-catalog.js';
import type { InboundOutcome } from './endpoint-options.js';

/** The spans of one endpoint's calls, by request. */
export class _EndpointTracing {
  readonly #tracer: Tracer;
  readonly #identity: Identity;
  readonly #cipher: CipherBackend;
  readonly #catalog: EndpointCatalog;
  readonly #spans = new WeakMap<XpEvent, Span>();

  constructor(tracer: Tracer, identity: Identity, cipher: CipherBackend, catalog: EndpointCatalog) {
    this.#tracer = tracer;
    this.#identity = identity;
    this.#cipher = cipher;
    this.#catalog = catalog;
  }

  /**
   * Starts the span of `request`, verified a moment ago, when it is of a tool kind the catalog
   * serves (not an answer to this adapter's own calls, which the same subscription delivers).
   */
  begin(request: XpEvent): void {
    if (isReservedKind(request.kind) || this.#catalog.tool(request.kind) === undefined) return;
    const parent = parseTraceparent(_openTraceTag(request, this.#identity, this.#cipher));
    this.#spans.set(
      request,
      this.#tracer.startSpan(`xprotocol ${request.kind}`, {
        parent,
        kind: 'server',
        attributes: {
          'xprotocol.kind': request.kind,
          'xprotocol.caller': request.pubkey,
          'xprotocol.request_id': request.id,
          'xprotocol.path': 'xprotocol',
        },
      }),
    );
  }

  /**
   * A client span of the upstream request `method` made for `request`; undefined when `request`
   * has no span.
   */
  upstream(request: XpEvent, method: string, source: string): Span | undefined {
    const parent = this.#spans.get(request);
    if (!parent) return undefined;
    return this.#tracer.startSpan(`upstream ${method}`, {
      parent: parent.context,
      kind: 'client',
      attributes: { 'mcp.method.name': method, 'xprotocol.source': source },
    });
  }

  /** The `traceparent` of the span of `request`; undefined when it has none. */
  traceparentOf(request: XpEvent | undefined): string | undefined {
    return request && this.#spans.get(request)?.traceparent;
  }

  /** Ends the span of `request` as `outcome` settled it. */
  settled(outcome: InboundOutcome, request: XpEvent | undefined): void {
    const span = request && this.#spans.get(request);
    if (!span) return;
    if (outcome.action === 'answered') {
      if (outcome.code !== undefined) span.setAttribute('xprotocol.error_code', outcome.code);
      span.end(outcome.code === undefined ? undefined : `${outcome.code}: ${outcome.message ?? ''}`);
    } else span.end(`${outcome.action}: ${outcome.reason}`);
  }
}
