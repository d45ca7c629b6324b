/**
 * An upstream MCP server session: the adapter is its MCP client. It connects over stdio (a child
 * process, never through a shell), Streamable HTTP or legacy SSE, lists every tool (all pages) and
 * calls them with a timeout and cancellation. When the server goes away (the child exits, the
 * socket drops), calls in flight fail with `UPSTREAM_UNAVAILABLE` and the next call reconnects,
 * no sooner than the backoff allows — a crashed server never makes a call run twice.
 * @module
 */
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BridgeError } from '../errors.js';
import { type BridgeLogger, silentLogger } from '../logger.js';

/** How to reach an upstream MCP server. */
export type UpstreamTransport =
  | { type: 'stdio'; command: readonly string[]; env?: Readonly<Record<string, string>>; cwd?: string }
  | { type: 'streamable_http' | 'sse'; url: string; bearerToken?: string };

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
  logger?: BridgeLogger;
  /** Called when the server says its tool list changed. */
  onToolsChanged?: () => void;
}

/** A tool as the server listed it (kept as received: translation copies it as it is). */
export type UpstreamTool = Record<string, unknown> & { name: string };

/** The result of `tools/call` as the server returned it. */
export type UpstreamCallResult = Record<string, unknown>;

/** A client session to one upstream MCP server. */
export class UpstreamSession {
  readonly name: string;
  readonly #options: UpstreamSessionOptions;
  readonly #logger: BridgeLogger;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #failures = 0;
  #nextAttemptAt = 0;
  #closed = false;
  #serverInfo: { name: string; version: string } | undefined;
  #instructions: string | undefined;

  constructor(options: UpstreamSessionOptions) {
    this.name = options.name;
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /** The server's `serverInfo` from the last `initialize`. */
  get serverInfo(): { name: string; version: string } | undefined {
    return this.#serverInfo;
  }

  /** The server's `instructions` from the last `initialize`. */
  get instructions(): string | undefined {
    return this.#instructions;
  }

  /** True while a session is up. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** Connects now (or returns the live session). Throws `UPSTREAM_UNAVAILABLE` with the cause. */
  async connect(): Promise<void> {
    await this.#session();
  }

  /** Every tool the server lists, all pages, in the server's order. */
  async listTools(): Promise<UpstreamTool[]> {
    const client = await this.#session();
    const tools: UpstreamTool[] = [];
    let cursor: string | undefined;
    // Walk pages explicitly so a page cap of the SDK never truncates a large catalog silently.
    for (let page = 0; page < 1000; page++) {
      const result = await client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...(result.tools as unknown as UpstreamTool[]));
      cursor = result.nextCursor;
      if (!cursor) return tools;
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
    const result = await client.listPrompts();
    return result.prompts as unknown as Record<string, unknown>[];
  }

  /**
   * Calls a tool. Rejects with `UPSTREAM_TIMEOUT` after `timeoutMs`, `UPSTREAM_UNAVAILABLE` when the
   * server cannot be reached or goes away mid-call, and `UPSTREAM_ERROR` for a JSON-RPC error. A
   * result with `isError: true` is a result, not an error.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<UpstreamCallResult> {
    const client = await this.#session();
    try {
      const result = await client.callTool(
        { name, arguments: args },
        { timeout: options.timeoutMs, ...(options.signal && { signal: options.signal }) },
      );
      return result as unknown as UpstreamCallResult;
    } catch (error) {
      throw this.#classify(error, `tools/call ${name}`);
    }
  }

  /** Ends the session and, for stdio, the child process. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => {});
  }

  #classify(error: unknown, what: string): BridgeError {
    if (error instanceof BridgeError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (/timed? ?out/i.test(message) || (error as { code?: unknown })?.code === -32001) {
      return new BridgeError('UPSTREAM_TIMEOUT', `${this.name}: ${what} timed out: ${message}`, {
        cause: error,
      });
    }
    if (!this.#client || /closed|not connected|ECONNREFUSED|EPIPE|terminated/i.test(message)) {
      return new BridgeError('UPSTREAM_UNAVAILABLE', `${this.name}: ${what} failed: ${message}`, {
        cause: error,
      });
    }
    return new BridgeError('UPSTREAM_ERROR', `${this.name}: ${what} failed: ${message}`, { cause: error });
  }

  async #session(): Promise<Client> {
    if (this.#closed) throw new BridgeError('CLOSED', `${this.name}: the upstream session is closed`);
    if (this.#client) return this.#client;
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(): Promise<Client> {
    const wait = this.#nextAttemptAt - Date.now();
    if (wait > 0) {
      throw new BridgeError(
        'UPSTREAM_UNAVAILABLE',
        `${this.name}: the server is down; next reconnect attempt in ${wait} ms`,
      );
    }
    const client = new Client(
      this.#options.clientInfo ?? { name: 'xprotocol-mcp-adapter', version: '0.1.0' },
      {
        capabilities: {},
        ...(this.#options.onToolsChanged && {
          listChanged: { tools: { onChanged: () => this.#options.onToolsChanged?.() } },
        }),
      },
    );
    const transport = this.#transport();
    try {
      await client.connect(transport);
    } catch (error) {
      this.#failures++;
      const min = this.#options.minReconnectMs ?? 500;
      const max = this.#options.maxReconnectMs ?? 30_000;
      this.#nextAttemptAt = Date.now() + Math.min(max, min * 2 ** Math.min(this.#failures - 1, 16));
      await client.close().catch(() => {});
      const message = error instanceof Error ? error.message : String(error);
      throw new BridgeError('UPSTREAM_UNAVAILABLE', `${this.name}: cannot connect: ${message}`, {
        cause: error,
      });
    }
    this.#failures = 0;
    this.#nextAttemptAt = 0;
    this.#serverInfo = client.getServerVersion() as { name: string; version: string } | undefined;
    this.#instructions = client.getInstructions();
    client.onclose = () => {
      if (this.#client === client) {
        this.#client = undefined;
        if (!this.#closed)
          this.#logger.warn({ source: this.name }, 'upstream MCP server went away; the next call reconnects');
      }
    };
    this.#client = client;
    this.#logger.info({ source: this.name, server: this.#serverInfo }, 'upstream MCP session ready');
    return client;
  }

  #transport() {
    const spec = this.#options.transport;
    if (spec.type === 'stdio') {
      const [command, ...args] = spec.command;
      if (!command) throw new BridgeError('INVALID_OPTIONS', `${this.name}: an empty stdio command`);
      const transport = new StdioClientTransport({
        command,
        args,
        env: { ...getDefaultEnvironment(), ...spec.env },
        stderr: 'pipe',
        ...(spec.cwd && { cwd: spec.cwd }),
      });
      // The child's stderr becomes debug logs: never our stdout, which may carry a protocol.
      transport.stderr?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line.trim())
            this.#logger.debug({ source: this.name, stderr: line.slice(0, 2000) }, 'upstream stderr');
        }
      });
      return transport;
    }
    const headers: Record<string, string> = {};
    if (spec.bearerToken) headers.authorization = `Bearer ${spec.bearerToken}`;
    const url = new URL(spec.url);
    return spec.type === 'sse'
      ? new SSEClientTransport(url, { requestInit: { headers } })
      : new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  }
}
