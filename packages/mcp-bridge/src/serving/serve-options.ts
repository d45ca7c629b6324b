/**
 * What serving the MCP face takes and gives back: where and how to serve it (the adapter's
 * `mcp_server` section), and the running face.
 * @module
 */
import type { FaceAuth } from '../auth/face-auth.js';

/** Where and how to serve the face (the adapter's `mcp_server` section). */
export interface McpFaceServeOptions {
  transport: 'stdio' | 'streamable_http' | 'sse';
  /** Bind address for HTTP. Default `127.0.0.1`; `0.0.0.0`/`::` bind every interface. */
  host?: string;
  /** HTTP port; `0` picks a free one (the returned `url` has it). Default 8767. */
  port?: number;
  /** HTTP path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Largest request body accepted, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Most MCP sessions at once, every principal's together (one per HTTP client). A new session
   * beyond it ends its own principal's least recently used session with no request in flight, if
   * it has one; otherwise it is refused `503`. Default 64. See docs/security.md, "Fair shares
   * between principals".
   */
  maxSessions?: number;
  /**
   * Most MCP sessions one principal may hold; beyond it the principal's least recently used
   * session with no request in flight ends, or when all are busy the new one is refused `429`.
   * Default a quarter of `maxSessions`. The face's one principal (no auth, or the static token)
   * is held to `maxSessions` only.
   */
  maxSessionsPerPrincipal?: number | undefined;
  /**
   * Most requests one HTTP session may have in flight, and the 2026-07-28 requests of one
   * principal together; more are answered `429` until some are answered. Default 32.
   */
  maxRequestsInFlight?: number;
  /**
   * Most requests one principal may have in flight across its sessions and its 2026-07-28
   * requests (`429` beyond it). Default a quarter of `maxRequestsInFlightTotal`; the face's one
   * principal is held to `maxRequestsInFlightTotal` only.
   */
  maxRequestsInFlightPerPrincipal?: number | undefined;
  /** Most requests in flight on the face, every principal's together (`503` beyond it). Default 256. */
  maxRequestsInFlightTotal?: number | undefined;
  /**
   * A session with no request in flight and no open stream ends after this long unused, in ms
   * (its client gets `404` and initializes again). Default 30 minutes.
   */
  sessionIdleMs?: number | undefined;
  /** Largest result sent to a client, in bytes of JSON; a bigger one becomes an error. Default 16 MiB. */
  maxResultBytes?: number;
  /** When set, HTTP requests must send `Authorization: Bearer <this>`; a non-empty string. */
  bearerToken?: string | undefined;
  /**
   * Who may use the face and which tools (`staticBearerAuth`, `OAuthFaceAuth`); takes the place
   * of `bearerToken`. An OAuth face also serves its protected resource metadata (RFC 9728).
   */
  auth?: FaceAuth | undefined;
  /**
   * Browser origins allowed besides the face's own (`http://<name>:<port>` for each name it
   * answers to), e.g. `http://localhost:6274` for the MCP Inspector. Each an `http(s)://` origin.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Told of each request refused `401` or `403` before it was served (for metrics; it must not
   * throw or wait). Nothing of the request is passed on: no header, no token.
   */
  onHttpRefused?: ((refusal: McpFaceHttpRefusal) => void) | undefined;
}

/**
 * Why the HTTP face refused a request with `401` or `403` before serving it: the Host or Origin
 * does not name the face, the caller did not authenticate, or its scopes do not cover the request.
 */
export type McpFaceHttpRefusalReason = 'host' | 'origin' | 'authentication' | 'scope';

/** A request the HTTP face refused before serving it, as {@link McpFaceServeOptions.onHttpRefused} hears it. */
export interface McpFaceHttpRefusal {
  status: 401 | 403;
  reason: McpFaceHttpRefusalReason;
}

/** A running MCP face. */
export interface McpFaceServer {
  /** `stdio`, or the HTTP URL (with the bound port). */
  readonly url: string;
  close(): Promise<void>;
}
