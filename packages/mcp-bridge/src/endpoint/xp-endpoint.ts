/**
 * Direction 1: the XProtocol endpoint in front of the wrapped MCP servers.
 *
 * Every event addressed to the adapter runs the checks of docs/protocol.md §4 in this order:
 * size/shape → id → signature → dedupe → freshness → kind lookup → authority → rate limit →
 * decrypt → schema, and only then the upstream `tools/call`. What fails early never reaches the
 * MCP server. Refusals that could serve as an oracle or an amplifier (bad shape, id, signature or
 * encryption; duplicates; stale events) are dropped and logged; everything else is answered with
 * a signed, encrypted `xp.error` carrying an `e` tag.
 *
 * Calls run at most once: the state database records a call as started before the upstream call
 * and stores every answer before it reaches the outbox (see {@link StateDatabase}); `recover()`
 * finishes what a crash left behind.
 * @module
 */
import {
  type CipherBackend,
  CryptoError,
  checkFreshness,
  createEventTemplate,
  decryptVerifiedEvent,
  getExpiration,
  getTag,
  type Identity,
  isExpired,
  isKeyString,
  MAX_PLAINTEXT_BYTES,
  type PublicIdentity,
  type SignatureBackend,
  sealEvent,
  signEvent,
  verifyEvent,
  type X25519KeyString,
  type XpEvent,
} from '@xprotocol/crypto';
import type { RelayPool, Subscription } from '@xprotocol/relay-client';
import {
  checkJsonLimits,
  DEFAULT_ARGUMENT_LIMITS,
  type JsonLimits,
  type JsonObject,
} from '@xprotocol/translate';
import {
  CATALOG_KIND,
  CATALOG_RESULT_KIND,
  DESCRIBE_KIND,
  DESCRIBE_RESULT_KIND,
  ERROR_KIND,
  isUnansweredKind,
  MCP_NOTIFICATION_KIND,
  MCP_REQUEST_KIND,
  MCP_REQUEST_RESULT_KIND,
  MCP_SESSION_END_KIND,
  MCP_SESSION_METHODS,
  parseMcpRequestPayload,
  parseMcpSessionEnd,
  parseMcpSessionMessage,
  TokenBuckets,
  type XpErrorCode,
  type XpErrorPayload,
  xpError,
} from '@xprotocol/wire';
import { XpCaller } from '../caller/xp-caller.js';
import { _openSessionTag } from '../caller/xp-mcp-session-tag.js';
import { BridgeError } from '../errors.js';
import { _GatewayRoutes } from '../gateway/gateway-routes.js';
import { type BridgeLogger, silentLogger } from '../logger.js';
import type { AccessPolicy } from '../policy/access.js';
import type { StateDatabase } from '../state/state-database.js';
import type { UpstreamSession } from '../upstream/upstream-session.js';
import type { EndpointCatalog } from './endpoint-catalog.js';
import { _XpCallerSession } from './xp-mcp-caller-session.js';
import { _upstreamError, _XpMcpRouter, type _XpMcpSource } from './xp-mcp-router.js';
import { _XpMcpSessions, type McpSessionLimits } from './xp-mcp-sessions.js';

/** The caller's MCP session a request runs in (none: the endpoint's shared session). */
interface _SessionOf {
  session: _XpCallerSession | undefined;
  /** The caller's client asked for progress on this request. */
  progress: boolean;
}

/** Options of {@link XpEndpoint}. */
export interface XpEndpointOptions {
  identity: Identity;
  pool: RelayPool;
  state: StateDatabase;
  catalog: EndpointCatalog;
  /** Upstream sessions by `mcp_sources[].name`. */
  upstreams: ReadonlyMap<string, UpstreamSession>;
  access: AccessPolicy;
  /**
   * The wrapped servers in configuration order with their XProtocol namespaces: `xp.mcp.request`
   * (resources, prompts, completion; docs/protocol.md §10.4) is routed among them and guarded by
   * `<namespace>.mcp.*` capabilities. Default: every upstream, its name as its namespace.
   */
  mcpSources?: readonly _XpMcpSource[];
  /** `rate_limit.requests_per_minute` by source name; default 600. */
  requestsPerMinute?: ReadonlyMap<string, number>;
  /** Longest an upstream call may run, in ms (also bounded by the request's expiration). Default 30000. */
  callTimeoutMs?: number;
  /**
   * The timeout of one tool of one source, in ms, when it has its own (`undefined`: use
   * `callTimeoutMs`). Still bounded by the request's expiration.
   */
  callTimeoutFor?: (source: string, tool: string) => number | undefined;
  /** Clock skew allowed for `created_at`, in s. Default 300. */
  maxFutureSeconds?: number;
  /** Dedupe retention: older events are dropped as stale, in s. Default 3600. */
  retentionSeconds?: number;
  /** Lifetime of the answers the endpoint publishes when the request had no expiration, in s. Default 3600. */
  answerTtlSeconds?: number;
  /** Calls run at once; more wait in line. Default 32. */
  maxConcurrentCalls?: number;
  /** Depth and size limits on a call's payload (docs/security.md). Default {@link DEFAULT_ARGUMENT_LIMITS}. */
  argumentLimits?: JsonLimits;
  /** Limits of the callers' MCP sessions (docs/protocol.md §10.5). */
  mcpSessions?: McpSessionLimits;
  /** The `clientInfo` the endpoint's sessions with the servers give when the caller gave none. */
  clientInfo?: { name: string; version: string };
  signatures: SignatureBackend;
  cipher: CipherBackend;
  logger?: BridgeLogger;
  /** The clock, in ms. */
  now?: () => number;
}

/** What became of one inbound event (returned for tests and logs). */
export type InboundOutcome =
  | { action: 'dropped'; reason: string }
  | { action: 'ignored'; reason: string }
  | { action: 'answered'; kind: string; code: XpErrorCode | undefined; answer: XpEvent };

type ResolvedOptions = Required<
  Omit<
    XpEndpointOptions,
    'requestsPerMinute' | 'logger' | 'now' | 'mcpSources' | 'mcpSessions' | 'clientInfo'
  >
>;

/** The endpoint's inbound side. */
export class XpEndpoint {
  readonly #o: ResolvedOptions;
  readonly #logger: BridgeLogger;
  readonly #now: () => number;
  readonly #buckets = new Map<string, TokenBuckets>();
  readonly #perMinute: ReadonlyMap<string, number>;
  #subscription: Subscription | undefined;
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #inflight = new Set<Promise<unknown>>();
  /** Ids being processed right now (before anything about them is stored). */
  readonly #processing = new Set<string>();
  readonly #mcp: _XpMcpRouter;
  /** The callers' MCP sessions: what lets a server talk back to a client across XProtocol. */
  readonly #sessions: _XpMcpSessions;

  constructor(options: XpEndpointOptions) {
    this.#o = {
      callTimeoutMs: 30_000,
      maxFutureSeconds: 300,
      retentionSeconds: 3600,
      answerTtlSeconds: 3600,
      maxConcurrentCalls: 32,
      argumentLimits: DEFAULT_ARGUMENT_LIMITS,
      ...options,
    } as ResolvedOptions;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#perMinute = options.requestsPerMinute ?? new Map();
    this.#mcp = new _XpMcpRouter({
      sources: options.mcpSources ?? [...options.upstreams.keys()].map((name) => ({ name, namespace: name })),
      upstreams: options.upstreams,
      routes: new _GatewayRoutes(options.identity.keys.ed25519, (data) => options.cipher.sha256(data)),
      access: options.access,
    });
    this.#sessions = new _XpMcpSessions({
      ...options.mcpSessions,
      xp: new XpCaller({
        identity: options.identity,
        pool: options.pool,
        signatures: options.signatures,
        cipher: options.cipher,
        now: this.#now,
      }),
      transportOf: (source) => options.upstreams.get(source)?.transport,
      clientInfo: options.clientInfo ?? { name: 'xprotocol-mcp-adapter', version: '0' },
      timeoutMs: this.#o.callTimeoutMs,
      ttlSeconds: this.#o.answerTtlSeconds,
      logger: this.#logger,
      now: this.#now,
    });
  }

  /** The adapter's own public keys. */
  get keys(): PublicIdentity {
    return this.#o.identity.keys;
  }

  /** How many MCP sessions of callers the endpoint keeps now (docs/protocol.md §10.5). */
  get mcpSessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * Finishes what a crash left (re-sends stored answers, answers interrupted calls, processes calls
   * that never started), then subscribes to events addressed to the adapter.
   */
  async start(): Promise<void> {
    await this.recover();
    this.#subscription = this.#o.pool.subscribe([{ '#p': [this.#o.identity.keys.ed25519] }], {
      // The pool delivers only events whose shape, id and signature it verified.
      onEvent: (event) => {
        this.#track(this.#handleVerified(event));
      },
      onClosed: (relay, reason) =>
        this.#logger.warn({ relay, reason }, 'relay closed the inbound subscription'),
    });
  }

  /** Stops receiving, waits for calls in flight to be answered, then ends the callers' MCP sessions. */
  async stop(): Promise<void> {
    this.#subscription?.close();
    this.#subscription = undefined;
    await Promise.allSettled([...this.#inflight]);
    await this.#sessions.close();
  }

  /** Finishes the calls a crash left unfinished (see {@link StateDatabase}). */
  async recover(): Promise<void> {
    const { state } = this.#o;
    for (const call of state.unfinished()) {
      if (call.status === 'answered' && call.answer) {
        await this.#o.pool.enqueue(call.answer);
        await state.markDone(call.id);
      } else if (call.status === 'started' && call.request) {
        this.#logger.warn(
          { id: call.id, kind: call.request.kind },
          'answering a call interrupted by a restart; it is not re-run',
        );
        await this.#answerError(
          call.request,
          xpError(
            'UPSTREAM_ERROR',
            'interrupted: the adapter stopped while this call was running; it was not retried',
          ),
        );
      } else {
        // A row without what it needs cannot be finished: keep it only for dedupe.
        await state.markDone(call.id);
      }
    }
  }

  /**
   * Runs one event through the whole pipeline. Public so tests can inject events below the relay;
   * the subscription calls it for everything the relays deliver. Never throws.
   */
  async handleEvent(raw: unknown): Promise<InboundOutcome> {
    const verdict = verifyEvent(raw, this.#o.signatures);
    if (!verdict.ok) return this.#drop(`${verdict.code}: ${verdict.message}`);
    return this.#handleVerified(verdict.event);
  }

  /** {@link XpEndpoint.handleEvent} after steps 1–3 (shape, id, signature). Never throws. */
  async #handleVerified(event: XpEvent): Promise<InboundOutcome> {
    try {
      if (event.pubkey === this.#o.identity.keys.ed25519)
        return { action: 'ignored', reason: 'our own event' };
      if (getTag(event, 'p') !== this.#o.identity.keys.ed25519) {
        return this.#drop('not addressed to this adapter (p tag)');
      }
      if (event.kind === MCP_NOTIFICATION_KIND || event.kind === MCP_SESSION_END_KIND)
        return await this.#sessionMessage(event);
      if (isUnansweredKind(event.kind))
        return { action: 'ignored', reason: `${event.kind} is never answered` };
      // One delivery at a time per id: a second copy arriving meanwhile is a duplicate.
      if (this.#processing.has(event.id) || this.#o.state.isKnown(event.id)) {
        return this.#drop(`duplicate of ${event.id}; its answer is already on the relay`);
      }
      this.#processing.add(event.id);
      try {
        return await this.#process(event);
      } finally {
        this.#processing.delete(event.id);
      }
    } catch (error) {
      this.#logger.error({ error: (error as Error).message }, 'inbound event failed unexpectedly');
      return { action: 'dropped', reason: `internal error: ${(error as Error).message}` };
    }
  }

  async #process(event: XpEvent): Promise<InboundOutcome> {
    const nowSeconds = Math.floor(this.#now() / 1000);
    const freshness = checkFreshness(event, nowSeconds, {
      maxFutureSeconds: this.#o.maxFutureSeconds,
      maxAgeSeconds: this.#o.retentionSeconds,
    });
    if (freshness !== 'ok') {
      return this.#drop(`${freshness}: created_at ${event.created_at}, now ${nowSeconds}`);
    }
    if (isExpired(event, nowSeconds)) {
      return this.#answerError(event, xpError('EXPIRED', `the request expired at ${getExpiration(event)}`));
    }
    if (event.kind === CATALOG_KIND) return this.#answerCatalog(event);
    if (event.kind === DESCRIBE_KIND) return this.#answerDescribe(event);
    if (event.kind === MCP_REQUEST_KIND) return this.#answerMcp(event);
    const tool = this.#o.catalog.tool(event.kind);
    if (!tool) return this.#answerError(event, xpError('NOT_FOUND', `no schema ${event.kind} here`));
    const required = tool.contract.auth.required_capability;
    const access = this.#o.access.check(event.pubkey, required);
    if (!access.ok) {
      return this.#answerError(
        event,
        xpError('AUTHORIZATION_INSUFFICIENT', `${required} is required: ${access.reason}`, {
          details: { required_capability: required },
        }),
      );
    }
    const limited = this.#bucket(tool.source).take(event.pubkey, this.#now());
    if (!limited.ok) {
      return this.#answerError(
        event,
        xpError('RATE_LIMITED', `rate limit of source ${tool.source} exceeded`, {
          retry_after: limited.retryAfterSeconds,
        }),
      );
    }
    const opened = await this.#openJson(event);
    if ('outcome' in opened) return opened.outcome;
    const payload: unknown = opened.value;
    // Before the validator or anything else walks the payload recursively.
    const limits = checkJsonLimits(payload, this.#o.argumentLimits, 'the payload');
    if (!limits.ok) {
      return this.#answerError(
        event,
        xpError('SCHEMA_VIOLATION', limits.message, {
          details: { limit: limits.limit, max: limits.max, found: limits.found },
        }),
      );
    }
    const check = tool.validate(payload);
    if (!check.ok) {
      return this.#answerError(
        event,
        xpError('SCHEMA_VIOLATION', check.message, {
          details: { errors: check.errors } as unknown as JsonObject,
        }),
      );
    }
    const session = this.#session(event);
    if ('outcome' in session) return session.outcome;
    return this.#call(event, tool.source, tool.upstreamName, payload as Record<string, unknown>, session);
  }

  async #call(
    event: XpEvent,
    source: string,
    upstreamName: string,
    args: Record<string, unknown>,
    session: _SessionOf,
  ): Promise<InboundOutcome> {
    const upstream = this.#o.upstreams.get(source);
    if (!upstream) return this.#answerError(event, xpError('NOT_FOUND', `source ${source} is not running`));
    await this.#acquire();
    let result: Record<string, unknown>;
    try {
      const timeoutMs = this.#timeoutMs(event, this.#o.callTimeoutFor?.(source, upstreamName));
      // From here on the call is never run again, whatever happens to this process.
      await this.#o.state.recordStarted(event, Math.floor(this.#now() / 1000));
      this.#logger.info(
        { id: event.id, kind: event.kind, sender: event.pubkey, source },
        'calling upstream tool',
      );
      result = session.session
        ? // The caller's own session with the server: what the server sends back reaches its client.
          await session.session.request(
            source,
            'tools/call',
            { name: upstreamName, arguments: args },
            { event, timeoutMs, progress: session.progress, shared: upstream },
          )
        : await upstream.callTool(upstreamName, args, { timeoutMs });
    } catch (error) {
      return this.#answerError(event, _callError(error));
    } finally {
      this.#release();
    }
    return this.#answerResult(event, `${event.kind}.result`, result);
  }

  /**
   * The caller's MCP session named by the request's `mcp` tag (docs/protocol.md §10.5), made on
   * first use; none without the tag. A tag that cannot be read, or a session refused because the
   * caller or the endpoint has too many, answers the request before anything runs.
   */
  #session(event: XpEvent): _SessionOf | { outcome: Promise<InboundOutcome> } {
    const session = this.#sessionTag(event);
    if ('outcome' in session) return session;
    const made = session.open?.();
    if (made === undefined || made instanceof _XpCallerSession)
      return { session: made, progress: session.progress };
    return { outcome: this.#answerError(event, made) };
  }

  /**
   * The request's `mcp` tag, read: how to open the caller's session (after the request passed
   * its checks: a refused request opens nothing), and whether its client wants progress.
   */
  #sessionTag(
    event: XpEvent,
  ):
    | { open: (() => _XpCallerSession | XpErrorPayload) | undefined; progress: boolean }
    | { outcome: Promise<InboundOutcome> } {
    const verdict = _openSessionTag(event, this.#o.identity, this.#o.cipher);
    if (!verdict.ok)
      return { outcome: this.#answerError(event, xpError('SCHEMA_VIOLATION', verdict.reason)) };
    const context = verdict.context;
    if (!context) return { open: undefined, progress: false };
    const caller = { ed25519: event.pubkey, x25519: getTag(event, 'x25519') as X25519KeyString };
    return { open: () => this.#sessions.session(caller, context), progress: context.progress === true };
  }

  /** `xp.mcp.notification` and `xp.mcp.session.end` from a caller: never answered. */
  async #sessionMessage(event: XpEvent): Promise<InboundOutcome> {
    let payload: unknown;
    try {
      payload = JSON.parse(
        decryptVerifiedEvent(event, this.#o.identity, { cipher: this.#o.cipher }).plaintext,
      );
    } catch (error) {
      return this.#drop(`cannot open ${event.kind}: ${(error as Error).message}`);
    }
    if (event.kind === MCP_SESSION_END_KIND) {
      const parsed = parseMcpSessionEnd(payload);
      if (!parsed.ok) return this.#drop(`${event.kind}: ${parsed.reason}`);
      const ended = await this.#sessions.end(event.pubkey, parsed.value.session);
      return { action: 'ignored', reason: ended ? 'the MCP session ended' : 'no such MCP session' };
    }
    const parsed = parseMcpSessionMessage(payload);
    if (!parsed.ok) return this.#drop(`${event.kind}: ${parsed.reason}`);
    const known = this.#sessions.receive(event.pubkey, parsed.value);
    return { action: 'ignored', reason: known ? `${parsed.value.method} delivered` : 'no such MCP session' };
  }

  /**
   * How long an upstream request for `event` may run: `configured` (a tool's own timeout) or the
   * call timeout, cut at the request's expiration.
   */
  #timeoutMs(event: XpEvent, configured?: number): number {
    const expiration = getExpiration(event);
    const untilExpiry =
      expiration === undefined ? Number.POSITIVE_INFINITY : (expiration + 1) * 1000 - this.#now();
    return Math.max(1, Math.min(configured ?? this.#o.callTimeoutMs, untilExpiry));
  }

  /**
   * `xp.mcp.request` (docs/protocol.md §10.4): decrypt → shape → route → authority → rate limit →
   * upstream. The capability depends on the source the request is routed to, so the payload is
   * opened first; nothing reaches a server before the caller's grant and rate limit were checked.
   * Recorded as started before the first upstream request, like a tool call (at most once).
   */
  async #answerMcp(event: XpEvent): Promise<InboundOutcome> {
    const opened = await this.#openJson(event);
    if ('outcome' in opened) return opened.outcome;
    const payload: unknown = opened.value;
    const parsed = parseMcpRequestPayload(payload);
    if (!parsed.ok) {
      return this.#answerError(event, xpError('SCHEMA_VIOLATION', `${MCP_REQUEST_KIND}: ${parsed.reason}`));
    }
    const session = this.#sessionTag(event);
    if ('outcome' in session) return session.outcome;
    if (!session.open && MCP_SESSION_METHODS.has(parsed.payload.method)) {
      return this.#answerError(
        event,
        xpError(
          'SCHEMA_VIOLATION',
          `${parsed.payload.method} acts on the caller's MCP session: the request needs the mcp tag (docs/protocol.md §10.5)`,
        ),
      );
    }
    await this.#acquire();
    let outcome: Awaited<ReturnType<_XpMcpRouter['handle']>>;
    try {
      outcome = await this.#mcp.handle(parsed.payload, {
        sender: event.pubkey,
        timeoutMs: this.#timeoutMs(event),
        ...(session.open && { session: session.open, event, progress: session.progress }),
        limit: (source) => {
          const limited = this.#bucket(source).take(event.pubkey, this.#now());
          return limited.ok
            ? undefined
            : xpError('RATE_LIMITED', `rate limit of source ${source} exceeded`, {
                retry_after: limited.retryAfterSeconds,
              });
        },
        started: async () => {
          // From here on the request is never run again, whatever happens to this process.
          await this.#o.state.recordStarted(event, Math.floor(this.#now() / 1000));
          this.#logger.info(
            { id: event.id, kind: event.kind, sender: event.pubkey, method: parsed.payload.method },
            'forwarding an MCP request upstream',
          );
        },
      });
    } finally {
      this.#release();
    }
    if (!outcome.ok) return this.#answerError(event, outcome.error);
    return this.#answerResult(event, MCP_REQUEST_RESULT_KIND, outcome.result);
  }

  #answerCatalog(event: XpEvent): Promise<InboundOutcome> {
    let request: unknown;
    if (event.content !== '') {
      try {
        const text = getTag(event, 'x25519')
          ? decryptVerifiedEvent(event, this.#o.identity, { cipher: this.#o.cipher }).plaintext
          : event.content;
        request = JSON.parse(text);
      } catch {
        return this.#answerError(
          event,
          xpError('SCHEMA_VIOLATION', 'a catalog request is empty or JSON {cursor?, limit?, kinds?}'),
        );
      }
    }
    let page: ReturnType<EndpointCatalog['page']>;
    try {
      page = this.#o.catalog.page(request);
    } catch (error) {
      return this.#answerError(event, xpError('SCHEMA_VIOLATION', (error as Error).message));
    }
    // Catalog pages are public (docs/protocol.md §10.1): signed, not encrypted.
    const nowSeconds = Math.floor(this.#now() / 1000);
    const answer = signEvent(
      createEventTemplate({
        kind: CATALOG_RESULT_KIND,
        content: JSON.stringify(page),
        tags: [
          ['p', event.pubkey],
          ['e', event.id],
        ],
        created_at: nowSeconds,
        expiration: this.#answerExpiration(event, nowSeconds),
      }),
      this.#o.identity.ed25519.secretKey,
      this.#o.signatures,
    );
    return this.#deliver(event, answer).then(() => ({
      action: 'answered',
      kind: answer.kind,
      code: undefined,
      answer,
    }));
  }

  /**
   * Opens a sealed request and parses its JSON. An event that cannot be opened is dropped (no
   * oracle); a payload that is not JSON is answered `SCHEMA_VIOLATION`.
   */
  async #openJson(event: XpEvent): Promise<{ value: unknown } | { outcome: InboundOutcome }> {
    let plaintext: string;
    try {
      // handleEvent verified the signature already.
      plaintext = decryptVerifiedEvent(event, this.#o.identity, { cipher: this.#o.cipher }).plaintext;
    } catch (error) {
      return { outcome: this.#drop(`cannot decrypt: ${(error as Error).message}`) };
    }
    try {
      return { value: JSON.parse(plaintext) };
    } catch {
      return {
        outcome: await this.#answerError(event, xpError('SCHEMA_VIOLATION', 'the payload is not JSON')),
      };
    }
  }

  /** `xp.schema.describe`: a sealed query, a sealed ranked answer; no capability needed. */
  async #answerDescribe(event: XpEvent): Promise<InboundOutcome> {
    const opened = await this.#openJson(event);
    if ('outcome' in opened) return opened.outcome;
    const query: unknown = opened.value;
    let matches: ReturnType<EndpointCatalog['describe']>;
    try {
      matches = this.#o.catalog.describe(query);
    } catch (error) {
      return this.#answerError(event, xpError('SCHEMA_VIOLATION', (error as Error).message));
    }
    return this.#answer(event, DESCRIBE_RESULT_KIND, { matches }, undefined);
  }

  /** Answers `request` with `result` under `kind`, or `TOO_LARGE` when it does not fit in one event. */
  async #answerResult(request: XpEvent, kind: string, result: unknown): Promise<InboundOutcome> {
    try {
      return await this.#answer(request, kind, result, undefined);
    } catch (error) {
      if (error instanceof CryptoError && error.code === 'INVALID_PAYLOAD') {
        return this.#answerError(
          request,
          xpError(
            'TOO_LARGE',
            `the result does not fit in one event (at most ${MAX_PLAINTEXT_BYTES} bytes of JSON)`,
          ),
        );
      }
      throw error;
    }
  }

  async #answerError(request: XpEvent, error: XpErrorPayload): Promise<InboundOutcome> {
    this.#logger.info(
      { id: request.id, kind: request.kind, sender: request.pubkey, code: error.code },
      error.message,
    );
    return this.#answer(request, ERROR_KIND, error, error.code);
  }

  /** Seals `payload` to the requester, stores it, then hands it to the outbox. */
  async #answer(
    request: XpEvent,
    kind: string,
    payload: unknown,
    code: XpErrorCode | undefined,
  ): Promise<InboundOutcome> {
    const senderX25519 = getTag(request, 'x25519');
    if (!senderX25519 || !isKeyString(senderX25519, 'x25519')) {
      // Nowhere to seal an answer to: the request was not a sealed event.
      return this.#drop('the request has no x25519 tag to answer to');
    }
    const nowSeconds = Math.floor(this.#now() / 1000);
    const answer = sealEvent(
      {
        kind,
        payload,
        replyTo: request.id,
        created_at: nowSeconds,
        expiration: this.#answerExpiration(request, nowSeconds),
      },
      this.#o.identity,
      { ed25519: request.pubkey, x25519: senderX25519 as X25519KeyString },
      { signatures: this.#o.signatures, cipher: this.#o.cipher },
    );
    await this.#deliver(request, answer);
    return { action: 'answered', kind, code, answer };
  }

  /** Answers live as long as the request (the caller gave up then), else for the answer TTL. */
  #answerExpiration(request: XpEvent, nowSeconds: number): number {
    const requested = getExpiration(request);
    return requested !== undefined && requested > nowSeconds
      ? requested
      : nowSeconds + this.#o.answerTtlSeconds;
  }

  /**
   * Stores the answer (with its outbox entry, in one transaction, when the pool's outbox is the
   * state database's), hands it to the pool, then marks the call done if that was a second step.
   */
  async #deliver(request: XpEvent, answer: XpEvent): Promise<void> {
    const { state, pool } = this.#o;
    const stored = await state.recordAnswer(request, answer, Math.floor(this.#now() / 1000));
    await pool.enqueue(answer);
    if (!stored.inOutbox) await state.markDone(request.id);
  }

  /** Drops an event with no answer. Nothing is stored: a copy of it is dropped again by the same check. */
  #drop(reason: string): InboundOutcome {
    this.#logger.debug({ reason }, 'inbound event dropped');
    return { action: 'dropped', reason };
  }

  #bucket(source: string): TokenBuckets {
    let bucket = this.#buckets.get(source);
    if (!bucket) {
      bucket = new TokenBuckets(this.#perMinute.get(source) ?? 600);
      this.#buckets.set(source, bucket);
    }
    return bucket;
  }

  async #acquire(): Promise<void> {
    if (this.#running < this.#o.maxConcurrentCalls) {
      this.#running++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }

  #track(promise: Promise<unknown>): void {
    this.#inflight.add(promise);
    void promise.finally(() => this.#inflight.delete(promise));
  }
}

/**
 * The `xp.error` for a failed tool call: a timeout is `TIMEOUT`; the server's JSON-RPC error
 * (on a caller's own session) is kept whole in `details.mcp_error`; the rest `UPSTREAM_ERROR`.
 */
function _callError(error: unknown): XpErrorPayload {
  if (error instanceof BridgeError)
    return xpError(error.code === 'UPSTREAM_TIMEOUT' ? 'TIMEOUT' : 'UPSTREAM_ERROR', error.message);
  return _upstreamError(error);
}
