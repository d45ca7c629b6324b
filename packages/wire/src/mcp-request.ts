/**
 * The `xp.mcp.request` payload (docs/protocol.md §10.4, "MCP requests"): the request/response
 * part of MCP that has no tool shape — resources, resource templates, prompts, completions,
 * subscriptions and the log level —
 * carried across XProtocol. The payload is the MCP request's own `{method, params}`; the answer
 * (`xp.mcp.request.result`) is the MCP result as the upstream returned it. Both are
 * revision-neutral: the adapter reads only the fields it routes by.
 * @module
 */

/**
 * The MCP methods an `xp.mcp.request` may carry, each with the capability suffix it requires
 * under the source's namespace (`<namespace>.mcp.resources.read`, …).
 */
export const MCP_REQUEST_METHODS = Object.freeze({
  'resources/list': 'mcp.resources.read',
  'resources/templates/list': 'mcp.resources.read',
  'resources/read': 'mcp.resources.read',
  'prompts/list': 'mcp.prompts.get',
  'prompts/get': 'mcp.prompts.get',
  'completion/complete': 'mcp.completion',
  'resources/subscribe': 'mcp.resources.subscribe',
  'resources/unsubscribe': 'mcp.resources.subscribe',
  'logging/setLevel': 'mcp.logging',
} as const);

/**
 * The methods that act on the caller's MCP session at the endpoint (a subscription, a log
 * level): an `xp.mcp.request` carrying one needs the `mcp` session tag (docs/protocol.md §10.5).
 */
export const MCP_SESSION_METHODS: ReadonlySet<string> = new Set([
  'resources/subscribe',
  'resources/unsubscribe',
  'logging/setLevel',
]);

/** An MCP method an `xp.mcp.request` may carry. */
export type McpRequestMethod = keyof typeof MCP_REQUEST_METHODS;

/** The payload of an `xp.mcp.request`. */
export interface McpRequestPayload {
  method: McpRequestMethod;
  /** The MCP request's params as the client sent them (absent for a first list page). */
  params?: Record<string, unknown>;
}

/** The verdict of {@link parseMcpRequestPayload}. */
export type McpRequestParse = { ok: true; payload: McpRequestPayload } | { ok: false; reason: string };

/** The capability `method` requires under `namespace`, e.g. `com.acme.docs.mcp.resources.read`. */
export function mcpRequestCapability(namespace: string, method: McpRequestMethod): string {
  return `${namespace}.${MCP_REQUEST_METHODS[method]}`;
}

/** True when `method` may travel in an `xp.mcp.request`. */
export function isMcpRequestMethod(method: unknown): method is McpRequestMethod {
  return typeof method === 'string' && Object.hasOwn(MCP_REQUEST_METHODS, method);
}

/** Checks the shape of an `xp.mcp.request` payload: `{method, params?}` and nothing else. */
export function parseMcpRequestPayload(value: unknown): McpRequestParse {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `expected an object {method, params?}, got ${_typeOf(value)}` };
  }
  const { method, params, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return { ok: false, reason: `unexpected field ${JSON.stringify(extra[0])}` };
  if (!isMcpRequestMethod(method)) {
    return {
      ok: false,
      reason: `method: expected one of ${Object.keys(MCP_REQUEST_METHODS).join(', ')}, got ${JSON.stringify(method)}`,
    };
  }
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    return { ok: false, reason: `params: expected an object, got ${_typeOf(params)}` };
  }
  const meta = (params as Record<string, unknown> | undefined)?._meta;
  if (meta !== null && typeof meta === 'object' && Object.hasOwn(meta, 'progressToken')) {
    return {
      ok: false,
      reason:
        'params._meta.progressToken: not carried across XProtocol; a request wanting progress says so with "progress": true in its mcp tag',
    };
  }
  return {
    ok: true,
    payload: params === undefined ? { method } : { method, params: params as Record<string, unknown> },
  };
}

function _typeOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
