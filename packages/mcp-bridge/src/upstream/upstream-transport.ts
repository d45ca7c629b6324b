/**
 * The transport to one upstream MCP server, built the same way for the adapter's own session and
 * for each gateway link: a stdio child through our {@link StdioChildTransport} (never run through
 * a shell, the SDK's safe default environment plus the configured `env`, its own process group,
 * a cap on one stdout line; its stderr becomes debug logs, never our stdout, which may carry a
 * protocol, and its last lines are kept for the error of an exit before the handshake); the SDK's Streamable HTTP or legacy SSE transport with the bearer token on every
 * request and host names resolved through the address policy; a Streamable HTTP stream the server
 * closes for polling is resumed from its last event id (`resuming-fetch.ts`); a server inside this
 * process (an OpenAPI service) through the transport it hands out.
 * @module
 */
import {
  type AuthProvider,
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import type { AddressPolicy } from '@xprotocol/relay-client';
import { BridgeError } from '../errors.js';
import type { BridgeLogger } from '../logger.js';
import { _httpFetch } from './pinned-fetch.js';
import { _resumingFetch } from './resuming-fetch.js';
import { _envSecrets, _StderrTail } from './stderr-tail.js';
import { StdioChildTransport } from './stdio-transport.js';

/** What the server answered to the last `server/discover` each HTTP transport built here sent. */
const _DISCOVER_ANSWERS = new WeakMap<Transport, string>();

/**
 * The server's own error for the last `server/discover` of an HTTP transport built by
 * {@link _createUpstreamTransport} (`-32602 Invalid params: …`), when it refused one. The SDK's
 * negotiation error says only that the revision was not offered; this says why.
 */
export function _discoverRefusalOf(transport: Transport): string | undefined {
  return _DISCOVER_ANSWERS.get(transport);
}

/** The stderr tail of each stdio transport built here. */
const _TAILS = new WeakMap<Transport, _StderrTail>();

/** The last stderr lines of a stdio transport built by {@link _createUpstreamTransport}. */
export function _stderrTailOf(transport: Transport): _StderrTail | undefined {
  return _TAILS.get(transport);
}

/**
 * How to reach an upstream MCP server: a child process over stdio (`command` is the program and
 * its arguments, never run through a shell), Streamable HTTP (`url` is the MCP endpoint, e.g.
 * `http://host/mcp`), or legacy HTTP+SSE (`url` is the SSE stream, e.g. `http://host/sse`; the
 * server names the POST endpoint). With `bearerToken`, every HTTP request — each POST and the
 * GET that opens a stream — carries `Authorization: Bearer <token>`; the token never appears in
 * logs or error messages.
 */
export type UpstreamTransport = (
  | {
      type: 'stdio';
      command: readonly string[];
      env?: Readonly<Record<string, string>>;
      cwd?: string;
      /**
       * The longest line accepted on the child's stdout, in bytes (default 16 MiB): a longer one is
       * dropped, and only the request it answers fails, naming the limit.
       */
      maxLineBytes?: number;
      /**
       * How long a line over `maxLineBytes` may run before its newline, in bytes (default 256 MiB):
       * past it the session ends, and the calls in flight fail naming both limits.
       */
      maxSkippedLineBytes?: number;
    }
  | {
      type: 'streamable_http' | 'sse';
      url: string;
      bearerToken?: string;
      /**
       * Puts a token on every request and hears every 401 instead of `bearerToken` (the OAuth
       * client of `upstream-auth/`); its tokens are for this server only.
       */
      oauth?: AuthProvider & {
        /**
         * Wraps the transport's fetch so the provider learns which token each 401 answered (a
         * 401 for a token it has replaced since costs no second refresh).
         */
        watchFetch?(fetch: FetchLike): FetchLike;
      };
      /**
       * Resolves a host name in `url` through this policy and connects only to checked addresses,
       * for every request (an IP literal or `localhost` is dialled as written).
       */
      addressPolicy?: AddressPolicy;
    }
  | {
      /**
       * A server inside this process (an OpenAPI service, `openapi/`): `connect` makes a new
       * session with it and answers the client's end of its transport.
       */
      type: 'in_process';
      connect: () => Transport;
      /** What the server is, for messages (`the OpenAPI document <path>`). */
      describe: string;
    }
) & {
  /**
   * The MCP revision the server speaks: `2026-07-28` (stateless: no `initialize`, per-request
   * `_meta`, input-required results instead of server requests), or the 2025 revisions when
   * absent. See docs/architecture.md, "Two MCP revisions".
   */
  revision?: McpRevision;
  /**
   * The longest one connection attempt may take, in ms (default 30 s, `connect-timeout.ts`): the
   * adapter's own session and every gateway link to this server are held to it.
   */
  connectTimeoutMs?: number;
};

/**
 * The MCP revision an upstream is spoken to in: `2026-07-28`, or `auto` (asked with
 * `server/discover` when the adapter's own session connects; 2025-11-25 when the server does not
 * answer it as a 2026-07-28 server). Absent means 2025-11-25.
 */
export type McpRevision = '2026-07-28' | 'auto';

/** The client options that make a session speak the upstream's revision. */
export function _revisionOptions(spec: UpstreamTransport): {
  versionNegotiation?: { mode: { pin: string } | 'auto' };
} {
  if (spec.revision === undefined) return {};
  return { versionNegotiation: { mode: spec.revision === 'auto' ? 'auto' : { pin: spec.revision } } };
}

/**
 * A new transport for `spec`. `source` names the upstream in errors and logs; `stderrLog` is the
 * message of the debug line each stderr line of a stdio child becomes.
 */
export function _createUpstreamTransport(
  source: string,
  spec: UpstreamTransport,
  logger: BridgeLogger,
  stderrLog: string,
): Transport {
  if (spec.type === 'in_process') return spec.connect();
  if (spec.type === 'stdio') {
    const [command, ...args] = spec.command;
    if (!command) throw new BridgeError('INVALID_OPTIONS', `${source}: an empty stdio command`);
    const transport = new StdioChildTransport({
      source,
      command,
      args,
      ...(spec.env && { env: spec.env }),
      ...(spec.cwd && { cwd: spec.cwd }),
      ...(spec.maxLineBytes !== undefined && { maxLineBytes: spec.maxLineBytes }),
      ...(spec.maxSkippedLineBytes !== undefined && { maxSkippedLineBytes: spec.maxSkippedLineBytes }),
    });
    // The values of the child's env never reach a log line or an error (docs/security.md).
    const tail = new _StderrTail(transport.stderr, _envSecrets(spec.env), (line) =>
      logger.debug({ source, stderr: line }, stderrLog),
    );
    _TAILS.set(transport, tail);
    return transport;
  }
  const url = new URL(spec.url);
  // The SDK's auth seam puts the token on every request: each POST and the GET of a stream.
  const token = spec.bearerToken;
  const authProvider: AuthProvider | undefined =
    spec.oauth ?? (token ? { token: async () => token } : undefined);
  const watch = spec.oauth?.watchFetch?.bind(spec.oauth);
  const pinned = _httpFetch(spec);
  if (spec.type === 'sse') {
    const sseFetch = watch ? watch(pinned ?? fetch) : pinned;
    return new SSEClientTransport(url, {
      ...(authProvider && { authProvider }),
      ...(sseFetch && { fetch: sseFetch }),
    });
  }
  let answers: ((answer: string) => void) | undefined;
  // Resumes polled streams from their last event id (resuming-fetch.ts); on a revision probe,
  // also notes the server's own error to `server/discover`.
  const resuming = _resumingFetch(pinned);
  const recording =
    spec.revision === undefined ? resuming : _discoverRecording(resuming, (answer) => answers?.(answer));
  const transport = new StreamableHTTPClientTransport(url, {
    ...(authProvider && { authProvider }),
    fetch: watch ? watch(recording) : recording,
  });
  answers = (answer) => _DISCOVER_ANSWERS.set(transport, answer);
  return transport;
}

/**
 * A fetch that notes the server's JSON-RPC error to a `server/discover` POST (the revision
 * probe), read from a copy of the response: the SDK goes on reading the response itself.
 */
function _discoverRecording(base: FetchLike, record: (answer: string) => void): FetchLike {
  return async (input, init) => {
    const response = await base(input, init);
    const body = init?.body;
    if (typeof body !== 'string' || !body.includes('"server/discover"')) return response;
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response;
    const text = await response
      .clone()
      .text()
      .catch(() => '');
    try {
      const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
      if (error && typeof error.message === 'string')
        record(`server/discover was answered ${String(error.code)} ${error.message.slice(0, 500)}`);
    } catch {
      // Not JSON after all: the SDK says what it makes of it.
    }
    return response;
  };
}
