/**
 * An upstream MCP server session: the adapter is its MCP client. It connects over stdio (a child
 * process, never through a shell), Streamable HTTP or legacy SSE, lists every tool (all pages) and
 * calls them with a timeout and cancellation. When the server goes away (the child exits, the
 * socket drops), calls in flight fail with `UPSTREAM_UNAVAILABLE` and the next call reconnects,
 * no sooner than the backoff allows — a crashed server never makes a call run twice.
 * @module
 */

import type { ChildProcess } from 'node:child_process';
import {
  Client,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { checkJsonLimits } from '@xprotocol/translate';
import { BridgeError } from '../errors.js';
import { type BridgeLogger, silentLogger } from '../logger.js';
import { _CONNECT_TIMEOUT_MS, _within } from './connect-timeout.js';
import { _describeEarlyExit, _stderrBlock, _unrecoverableExit } from './early-exit.js';
import { _LinearSchemaValidator } from './linear-schema-validator.js';
import { _envSecrets } from './stderr-tail.js';
import { StdioChildTransport, StdoutLineSkippedError, StdoutLineTooLongError } from './stdio-transport.js';
import { _childOf, describeExit, type SupervisionOptions, UpstreamSupervisor } from './supervisor.js';
import { _listPage, type _ToolsPage, type UpstreamTool } from './tools-page.js';
import {
  _authStatus,
  _classifyUpstreamError,
  _credentialsRefused,
  _describe,
  _isLostStream,
  _redact,
} from './upstream-errors.js';
import {
  _createUpstreamTransport,
  _discoverRefusalOf,
  _revisionOptions,
  _stderrTailOf,
  type UpstreamTransport,
} from './upstream-transport.js';

/** Options of {@link UpstreamSession}. */
export interface UpstreamSessionOptions {
  /** The source name, for logs and errors. */
  name: string;
  transport: UpstreamTransport;
  /** The client identity sent in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** Smallest pause between reconnect attempts, in ms (doubles to `maxReconnectMs`). Default 500. */
  minReconnectMs?: number;
  /** Default 30000. */
  maxReconnectMs?: number;
  /**
   * How long one connection attempt may take, in ms (default: the transport's `connectTimeoutMs`,
   * else 30000): a server that never finishes
   * the handshake (never answers `initialize` or `server/discover`, never acknowledges
   * `subscriptions/listen`) fails the attempt with that reason instead of leaving it pending.
   */
  connectTimeoutMs?: number;
  logger?: BridgeLogger;
  /** Called when the server says its tool list changed. */
  onToolsChanged?: () => void;
  /** Called when the server says its prompt or resource list changed. */
  onListChanged?: (list: 'prompts' | 'resources') => void;
  /**
   * Stdio only: restart a child that ends on its own (backoff with jitter, crash-loop breaker).
   * Without it, the next call starts a new child.
   */
  supervise?: SupervisionOptions;
}

export type { UpstreamTool } from './tools-page.js';

/** The result of `tools/call` as the server returned it. */
export type UpstreamCallResult = Record<string, unknown>;

/** One validator provider for every session (it caches an ajv instance per dialect). */
const _OUTPUT_VALIDATOR = new _LinearSchemaValidator();

/** How long an exited child's stderr gets to be read to its end, in ms. */
const _STDERR_SETTLE_MS = 1000;
/** How long a child whose connection closed gets to report its exit, in ms. */
const _EXIT_SETTLE_MS = 2000;

/** Deeper than any argument limit the adapter accepts, far shallower than a serializer's stack. */
const _SENDABLE = { maxDepth: 1000, maxBytes: Number.POSITIVE_INFINITY };

/** A client session to one upstream MCP server. */
/** Options of one request on an {@link UpstreamSession}. */
export interface UpstreamRequestOptions {
  timeoutMs: number;
  /** Cancels the request (the server gets `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Asks the server for progress and receives each report (which also restarts the timeout). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The request's `params._meta` (a W3C `traceparent`, docs/operating.md "Traces"); absent: none. */
  meta?: Record<string, unknown>;
}

export class UpstreamSession {
  readonly name: string;
  readonly #options: UpstreamSessionOptions;
  readonly #logger: BridgeLogger;
  /** Strings that must never reach a log line or an error message. */
  readonly #secrets: readonly string[];
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #failures = 0;
  #nextAttemptAt = 0;
  /** Set when the stdio command cannot be started at all (not found, not executable): never retried. */
  #cannotStart: BridgeError | undefined;
  #closed = false;
  #serverInfo: { name: string; version: string } | undefined;
  #instructions: string | undefined;
  #lastCapabilities: unknown;
  /** The MCP revision the last session spoke. */
  #negotiated: string | undefined;
  /** True while the supervisor's restart is connecting (its failure is the supervisor's to retry). */
  #restarting = false;
  readonly #supervisor: UpstreamSupervisor | undefined;
  /** How each session's child ended, once it has (stdio). */
  readonly #exits = new WeakMap<Client, string>();
  /** Each session's stdio transport (the client forgets it once closed), for why it closed itself. */
  readonly #stdio = new WeakMap<Client, StdioChildTransport>();
  /** The annotations of each listed tool: whether a call cut short may be run again. */
  readonly #annotations = new Map<string, Record<string, unknown>>();
  /** Calls in flight, for the drain on close. */
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(options: UpstreamSessionOptions) {
    this.name = options.name;
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    const spec = options.transport;
    this.#secrets =
      spec.type === 'stdio'
        ? _envSecrets(spec.env)
        : spec.type !== 'in_process' && spec.bearerToken
          ? [spec.bearerToken]
          : [];
    this.#supervisor =
      spec.type === 'stdio' && options.supervise
        ? new UpstreamSupervisor(options.name, options.supervise, this.#logger)
        : undefined;
  }

  /**
   * How the server is reached (a session of a client of its own opens the same way). With
   * `revision: 'auto'`, once this session connected: the revision it found, so that other
   * sessions speak it without asking again.
   */
  get transport(): UpstreamTransport {
    const spec = this.#options.transport;
    if (spec.revision !== 'auto' || this.#negotiated === undefined) return spec;
    const { revision: _auto, ...rest } = spec;
    return this.#negotiated >= '2026-07-28' ? { ...rest, revision: '2026-07-28' } : rest;
  }

  /** The pid of the stdio child while a session is up (for status output and tests). */
  get pid(): number | undefined {
    return _childOf(this.#client?.transport)?.pid;
  }

  /** The server's `serverInfo` from the last `initialize`. */
  get serverInfo(): { name: string; version: string } | undefined {
    return this.#serverInfo;
  }

  /** The server's `instructions` from the last `initialize`. */
  get instructions(): string | undefined {
    return this.#instructions;
  }

  /** The server's capabilities from the last `initialize` (undefined before the first one). */
  get serverCapabilities(): Record<string, unknown> | undefined {
    return (this.#client?.getServerCapabilities() ?? this.#lastCapabilities) as
      | Record<string, unknown>
      | undefined;
  }

  /** True while a session is up. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /**
   * A supervised stdio server's restarts so far and whether its crash breaker is open now
   * (docs/operating.md); `undefined` for a server that is not supervised.
   */
  get supervision(): { restarts: number; breakerOpen: boolean } | undefined {
    const supervisor = this.#supervisor;
    return supervisor && { restarts: supervisor.restarts, breakerOpen: supervisor.breaker.isOpen() };
  }

  /** Connects now (or returns the live session). Throws `UPSTREAM_UNAVAILABLE` with the cause. */
  async connect(): Promise<void> {
    await this.#session();
  }

  /** Every tool the server lists, all pages, in the server's order. */
  async listTools(): Promise<UpstreamTool[]> {
    const client = await this.#session();
    const tools: UpstreamTool[] = [];
    const repaired: string[] = [];
    const skipped: string[] = [];
    let cursor: string | undefined;
    // Walk pages explicitly so a page cap of the SDK never truncates a large catalog silently.
    for (let page = 0; page < 1000; page++) {
      let result: _ToolsPage;
      try {
        result = await _listPage(client, cursor);
      } catch (error) {
        throw this.#fail(client, error, 'tools/list', false);
      }
      tools.push(...result.tools);
      repaired.push(...result.repaired);
      skipped.push(...result.skipped);
      cursor = result.nextCursor;
      if (!cursor) {
        if (repaired.length > 0 || skipped.length > 0) {
          this.#logger.warn(
            { source: this.name, repaired, skipped },
            `${this.name}: tools/list: ${repaired.length} tools listed an inputSchema without "type": "object" (read as an object schema, as MCP requires); ${skipped.length} entries were not tools (skipped)`,
          );
        }
        this.#annotations.clear();
        for (const tool of tools)
          if (tool.annotations && typeof tool.annotations === 'object')
            this.#annotations.set(tool.name, tool.annotations as Record<string, unknown>);
        this.#supervisor?.healthy();
        return tools;
      }
    }
    throw new BridgeError(
      'UPSTREAM_ERROR',
      `${this.name}: tools/list returned more than 1000 pages; refusing a cursor that never ends`,
    );
  }

  /** Every prompt the server lists (empty when it has no prompts capability). */
  async listPrompts(): Promise<Record<string, unknown>[]> {
    const client = await this.#session();
    if (!client.getServerCapabilities()?.prompts) return [];
    try {
      const result = await client.listPrompts();
      return result.prompts as unknown as Record<string, unknown>[];
    } catch (error) {
      throw this.#fail(client, error, 'prompts/list', false);
    }
  }

  /**
   * Every resource template the server lists, all pages (empty when it has no resources
   * capability): the prompt and resource-template contracts of docs/protocol.md §10.11.
   */
  async listResourceTemplates(): Promise<Record<string, unknown>[]> {
    const client = await this.#session();
    if (!client.getServerCapabilities()?.resources) return [];
    const templates: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < 1000; page++) {
        const result = await client.listResourceTemplates(cursor === undefined ? undefined : { cursor });
        templates.push(...(result.resourceTemplates as unknown as Record<string, unknown>[]));
        cursor = result.nextCursor;
        if (cursor === undefined) return templates;
      }
    } catch (error) {
      throw this.#fail(client, error, 'resources/templates/list', false);
    }
    throw new BridgeError(
      'UPSTREAM_ERROR',
      `${this.name}: resources/templates/list returned more than 1000 pages; refusing a cursor that never ends`,
    );
  }

  /**
   * Calls a tool, once: a failed call is never retried. Rejects with `UPSTREAM_TIMEOUT` after
   * `timeoutMs` (the server is told to cancel), `UPSTREAM_UNAVAILABLE` when the server cannot be
   * reached or goes away mid-call (the next call reconnects), and `UPSTREAM_ERROR` for a JSON-RPC
   * error (with the server's code and message) or a cancellation through `signal`. A result with
   * `isError: true` is a result, not an error.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamRequestOptions,
  ): Promise<UpstreamCallResult> {
    return this.#track(this.#callTool(name, args, options));
  }

  /** Keeps `call` in the set the drain on close waits for, until it settles. */
  #track<T>(call: Promise<T>): Promise<T> {
    this.#inFlight.add(call);
    const forget = () => this.#inFlight.delete(call);
    call.then(forget, forget);
    return call;
  }

  async #callTool(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamRequestOptions,
  ): Promise<UpstreamCallResult> {
    // The session is shared: arguments that cannot be sent (too deep to serialize) fail this
    // call alone, before the transport sees them (docs/security.md, "Argument limits").
    const sendable = checkJsonLimits(args, _SENDABLE);
    if (!sendable.ok) {
      throw new BridgeError(
        'UPSTREAM_ERROR',
        `${this.name}: tools/call ${name} was not sent: ${sendable.message}`,
      );
    }
    const client = await this.#session();
    try {
      const result = await client.callTool(
        { name, arguments: args, ...(options.meta && { _meta: options.meta }) },
        _sdkOptions(options),
      );
      this.#supervisor?.healthy();
      return result as unknown as UpstreamCallResult;
    } catch (error) {
      const failure = this.#fail(client, error, `tools/call ${name}`, options.signal?.aborted === true);
      const exit = this.#exits.get(client);
      // A child we ended for breaking the protocol: #fail already said why.
      if (exit === undefined || failure.code !== 'UPSTREAM_UNAVAILABLE' || this.#broken(client))
        throw failure;
      // The child died under the call: say how, and whether running it again is safe.
      const hints = this.#annotations.get(name);
      const safe =
        hints?.readOnlyHint === true
          ? 'the tool is marked read-only, so calling it again is safe'
          : hints?.idempotentHint === true
            ? 'the tool is marked idempotent, so calling it again is safe'
            : 'the call may or may not have run';
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `${this.name}: tools/call ${name} failed: the server process ended during the call (${exit}); ${safe}`,
        { cause: failure },
      );
    }
  }

  /**
   * Sends one MCP request without a tool shape (`resources/read`, `prompts/get`, …) and returns
   * the server's result as it is. Failures are classified as for {@link callTool}; a JSON-RPC
   * error of the server is an `UPSTREAM_ERROR` whose `cause` is the SDK's `ProtocolError` (its
   * code, message and data kept).
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: UpstreamRequestOptions,
  ): Promise<Record<string, unknown>> {
    return this.#track(this.#request(method, params, options));
  }

  async #request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: UpstreamRequestOptions,
  ): Promise<Record<string, unknown>> {
    const client = await this.#session();
    try {
      return (await client.request(
        { method, ...(params && { params }) } as never,
        _sdkOptions(options),
      )) as Record<string, unknown>;
    } catch (error) {
      throw this.#fail(client, error, method, options.signal?.aborted === true);
    }
  }

  /**
   * Ends the session: new calls are refused (`CLOSED`), calls in flight get up to `graceMs`
   * (default 0) to finish, then a Streamable HTTP session is terminated on the server (`DELETE`,
   * at most one second) and a stdio child is ended (stdin closed, then `SIGTERM`, then `SIGKILL`).
   */
  async close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closed = true;
    this.#supervisor?.stop();
    const graceMs = options.graceMs ?? 0;
    if (graceMs > 0 && this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.#inFlight]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
    }
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        transport.terminateSession().catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 1000);
        }),
      ]);
      clearTimeout(timer);
    }
    await client.close().catch(() => {});
  }

  /** Classifies a failed request; a failure of the connection itself drops the session. */
  #fail(client: Client, error: unknown, what: string, aborted: boolean): BridgeError {
    const failure = _classifyUpstreamError(error, {
      source: this.name,
      what,
      aborted,
      secrets: this.#secrets,
    });
    if (!failure.dropSession) return failure.error;
    this.#drop(client, failure.error.message);
    const broken = this.#broken(client);
    if (!broken) return failure.error;
    return new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      _redact(`${this.name}: ${what} failed: ${broken.message}`, this.#secrets),
      {
        cause: broken,
      },
    );
  }

  /** Why the stdio transport of `client` closed itself (a stdout line over the limit), if it did. */
  #broken(client: Client): Error | undefined {
    return this.#stdio.get(client)?.failure;
  }

  /** Forgets `client` (if it is still the live one) and closes it; the next call reconnects. */
  #drop(client: Client, reason: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    const exit = this.#exits.get(client);
    if (exit !== undefined && this.#supervisor && !this.#closed) {
      const broken = this.#broken(client);
      const how =
        broken instanceof StdoutLineTooLongError
          ? `ended by the adapter: a line on stdout with no newline within ${broken.maxSkippedLineBytes} bytes`
          : exit;
      this.#supervisor.crashed(how, () => this.#restart());
    } else if (!this.#closed) {
      this.#logger.warn(
        { source: this.name, reason: _redact(reason, this.#secrets) },
        'upstream MCP session lost; the next call reconnects',
      );
    }
    client.close().catch(() => {});
  }

  async #session(): Promise<Client> {
    if (this.#closed) throw new BridgeError('CLOSED', `${this.name}: the upstream session is closed`);
    if (this.#client) return this.#client;
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /** A supervised restart: no reconnect delay of its own (the supervisor already waited). */
  async #restart(): Promise<void> {
    this.#nextAttemptAt = 0;
    this.#restarting = true;
    try {
      await this.connect();
    } finally {
      this.#restarting = false;
    }
  }

  async #open(): Promise<Client> {
    if (this.#cannotStart) throw this.#cannotStart;
    this.#supervisor?.admit();
    const wait = this.#nextAttemptAt - Date.now();
    if (wait > 0) {
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `${this.name}: the server is down (${this.#failures} failed connection attempt${this.#failures === 1 ? '' : 's'}); next reconnect attempt in ${wait} ms`,
      );
    }
    const client = new Client(
      this.#options.clientInfo ?? { name: 'xprotocol-mcp-adapter', version: '0.1.0' },
      {
        capabilities: {},
        ..._revisionOptions(this.#options.transport),
        // outputSchema patterns run on the linear-time engine, like argument schemas.
        jsonSchemaValidator: _OUTPUT_VALIDATOR,
        listChanged: {
          ...(this.#options.onToolsChanged && {
            tools: { onChanged: () => this.#options.onToolsChanged?.() },
          }),
          // Passed on without reading the lists again (the face's clients do that themselves).
          ...(this.#options.onListChanged && {
            prompts: { autoRefresh: false, onChanged: () => this.#options.onListChanged?.('prompts') },
            resources: { autoRefresh: false, onChanged: () => this.#options.onListChanged?.('resources') },
          }),
        },
      },
    );
    const transport = this.#transport();
    if (transport instanceof StdioChildTransport) this.#stdio.set(client, transport);
    try {
      await _within(
        client.connect(transport),
        this.#options.connectTimeoutMs ?? this.#options.transport.connectTimeoutMs ?? _CONNECT_TIMEOUT_MS,
      );
    } catch (error) {
      throw await this.#startFailure(client, transport, error);
    }
    if (this.#closed) {
      // close() ran while we were connecting: do not leave a session (or a child) behind.
      await client.close().catch(() => {});
      throw new BridgeError('CLOSED', `${this.name}: the upstream session was closed while connecting`);
    }
    this.#failures = 0;
    this.#nextAttemptAt = 0;
    this.#serverInfo = client.getServerVersion() as { name: string; version: string } | undefined;
    this.#instructions = client.getInstructions();
    this.#lastCapabilities = client.getServerCapabilities();
    this.#negotiated = client.getNegotiatedProtocolVersion();
    // The exit event comes before the pipes close, so the calls failed by the close know how the
    // child ended.
    _childOf(transport)?.once('exit', (code, signal) => this.#exits.set(client, describeExit(code, signal)));
    client.onclose = () => this.#drop(client, 'the connection closed');
    client.onerror = (error: Error) => {
      // A stream that is gone for good ends the session (and fails the calls waiting on it);
      // other transport errors surface on the request they belong to.
      if (error instanceof StdoutLineTooLongError)
        this.#logger.warn({ source: this.name, maxLineBytes: error.maxLineBytes }, error.message);
      else if (error instanceof StdoutLineSkippedError)
        this.#logger.warn(
          { source: this.name, id: error.id, lineBytes: error.lineBytes, maxLineBytes: error.maxLineBytes },
          error.message,
        );
      else if (_isLostStream(error))
        this.#drop(client, `the server's event stream was lost: ${_describe(error)}`);
      else
        this.#logger.debug(
          { source: this.name, error: _redact(_describe(error), this.#secrets) },
          'upstream transport error',
        );
    };
    this.#client = client;
    this.#logger.info({ source: this.name, server: this.#serverInfo }, 'upstream MCP session ready');
    return client;
  }

  /**
   * The error of a connection attempt that failed. A stdio child that exited before the
   * handshake is described by how it ended and its last stderr lines; one whose lines say no
   * start can succeed (npm: no such package) is not started again (`UPSTREAM_CANNOT_START`).
   */
  async #startFailure(client: Client, transport: Transport, error: unknown): Promise<BridgeError> {
    this.#failures++;
    const min = this.#options.minReconnectMs ?? 500;
    const max = this.#options.maxReconnectMs ?? 30_000;
    const backoff = Math.min(max, min * 2 ** Math.min(this.#failures - 1, 16));
    this.#nextAttemptAt = Date.now() + backoff;
    // How the child ended, read before close() ends a child that is still running.
    const child = _childOf(transport);
    // Its pipes can close before its `exit` event comes: a closed connection waits for it a little.
    if (child && SdkError.isInstance(error) && error.code === SdkErrorCode.ConnectionClosed)
      await _exitWithin(child, _EXIT_SETTLE_MS);
    const exited =
      child && this.#broken(client) === undefined && (child.exitCode !== null || child.signalCode !== null)
        ? describeExit(child.exitCode, child.signalCode)
        : undefined;
    await client.close().catch(() => {});
    const spawnFailure = _spawnFailure(error, this.#options.transport);
    if (spawnFailure) {
      this.#cannotStart = new BridgeError('UPSTREAM_CANNOT_START', `${this.name}: ${spawnFailure}`, {
        cause: error,
      });
      return this.#cannotStart;
    }
    const tail = exited === undefined ? undefined : _stderrTailOf(transport);
    await tail?.settled(_STDERR_SETTLE_MS);
    const stderr = tail?.lines() ?? [];
    const unrecoverable = exited === undefined ? undefined : _unrecoverableExit(stderr);
    if (unrecoverable) {
      this.#cannotStart = new BridgeError(
        'UPSTREAM_CANNOT_START',
        _redact(`${this.name}: ${unrecoverable}${_stderrBlock(stderr)}`, this.#secrets),
        { cause: error },
      );
      return this.#cannotStart;
    }
    const refused = _authStatus(error);
    // A server that refused the revision probe: its own error comes first (the SDK's does not say it).
    const discover = _discoverRefusalOf(transport);
    const why =
      exited !== undefined
        ? _describeEarlyExit(exited, stderr)
        : refused === undefined
          ? `${discover ? `${discover}; ` : ''}${_describe(this.#broken(client) ?? error)}`
          : _credentialsRefused(refused);
    // No retry delay in the message: the caller decides when (and whether) to try again and
    // says so in its own log line.
    const message = _redact(`${this.name}: cannot connect to ${this.#where()}: ${why}`, this.#secrets);
    // A start the supervisor asked for is retried by it; any other by the caller (counted only).
    if (!this.#closed)
      this.#supervisor?.failedToStart(
        message.slice(this.name.length + 2),
        this.#restarting ? () => this.#restart() : undefined,
      );
    this.#logger.debug({ source: this.name, failures: this.#failures, backoffMs: backoff }, message);
    return new BridgeError('UPSTREAM_UNAVAILABLE', message, { cause: error });
  }

  /** Where the server is, for messages (never with credentials). */
  #where(): string {
    const spec = this.#options.transport;
    if (spec.type === 'stdio') return `the command ${JSON.stringify(spec.command[0] ?? '')}`;
    if (spec.type === 'in_process') return spec.describe;
    const url = new URL(spec.url);
    url.username = '';
    url.password = '';
    return `${spec.type === 'sse' ? 'the SSE endpoint' : 'the Streamable HTTP endpoint'} ${url.href}`;
  }

  #transport(): Transport {
    return _createUpstreamTransport(this.name, this.#options.transport, this.#logger, 'upstream stderr');
  }
}

/**
 * Why a stdio command cannot be started at all, or `undefined` for any other failure: the child
 * was never spawned because the program is not on `PATH` (`ENOENT`) or not executable (`EACCES`).
 * Retrying cannot help until the configuration or the machine changes.
 */
function _spawnFailure(error: unknown, spec: UpstreamTransport): string | undefined {
  if (spec.type !== 'stdio') return undefined;
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  if (typeof syscall !== 'string' || !syscall.startsWith('spawn')) return undefined;
  const command = spec.command[0] ?? '';
  const where = command.includes('/') ? '' : ' on PATH';
  if (code === 'ENOENT') {
    return spec.cwd
      ? `command not found${where}: ${command} (or its working directory ${spec.cwd} does not exist)`
      : `command not found${where}: ${command}`;
  }
  if (code === 'EACCES') return `command cannot be executed (permission denied): ${command}`;
  return undefined;
}

/** The SDK's request options for ours: progress, when asked for, also restarts the timeout. */
function _sdkOptions(options: UpstreamRequestOptions): Record<string, unknown> {
  return {
    timeout: options.timeoutMs,
    ...(options.signal && { signal: options.signal }),
    ...(options.onProgress && { onprogress: options.onProgress, resetTimeoutOnProgress: true }),
  };
}

/** Resolves when `child` has exited, or after `ms` (a child still running is left to close()). */
function _exitWithin(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    child.once('exit', done);
    function done(): void {
      clearTimeout(timer);
      child.off('exit', done);
      resolve();
    }
  });
}
