/**
 * The seam between the endpoint's pipeline and whatever runs its tools: what the endpoint asks of
 * a source once a call passed every check. An MCP server's `UpstreamSession` is one; a native
 * endpoint's in-process handlers (`@xprotocol/endpoint`) are another, so both are served by the
 * same pipeline (docs/architecture.md, "Native endpoints").
 * @module
 */
import type { UpstreamCallResult, UpstreamRequestOptions } from '../upstream/upstream-session.js';
import type { UpstreamTransport } from '../upstream/upstream-transport.js';

/** What runs the tools of one source behind the endpoint. */
export interface ToolProvider {
  /**
   * How to open a caller's own MCP link to the source (docs/protocol.md §10.5). Absent: the source
   * is no MCP server, nothing it runs can reach a caller's client, and every request runs here.
   */
  readonly transport?: UpstreamTransport | undefined;
  /** The MCP capabilities the source offers (`resources`, `prompts`, `logging` …); absent: tools only. */
  readonly serverCapabilities?: Record<string, unknown> | undefined;
  /**
   * Runs one tool call; resolves with an MCP `CallToolResult`. A rejection is answered with an
   * `xp.error` (`TIMEOUT` for a `BridgeError` `UPSTREAM_TIMEOUT`, else `UPSTREAM_ERROR` with its message).
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamRequestOptions,
  ): Promise<UpstreamCallResult>;
  /** Any other MCP request routed to the source (`prompts/get`, `resources/read` …). */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: UpstreamRequestOptions,
  ): Promise<Record<string, unknown>>;
}
