/**
 * Which capabilities a request of a face client needs (docs/security.md, "OAuth on the MCP face"),
 * named as the XProtocol endpoint names them (docs/protocol.md §10.4), so that one grant means the
 * same on both: a tool, its required capability; a resource, resource template, prompt, completion
 * or log level, `<namespace>.mcp.resources.read`, `….mcp.resources.subscribe`, `….mcp.prompts.get`,
 * `….mcp.completion` or `….mcp.logging` under the namespace of the source that serves it. Listings
 * need nothing: they show only what may be used.
 *
 * The face knows a request's source only once the listings told it where the entry lives, so a
 * request names every source it may go to; the face's servers check again once they chose one.
 * The face does not know what a client's token holds: the transport gives each server a
 * {@link FaceMayUse} predicate, asked per request.
 * @module
 */
import { ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import { isMcpRequestMethod, type McpRequestMethod, mcpRequestCapability } from '@xprotocol/wire';
import type { _GatewayRoutes } from '../gateway/gateway-routes.js';
import type { _SourceCheck } from '../gateway/gateway-session.js';

/**
 * What one request needs: one entry per source it may go to, each the capabilities it needs
 * there. The request may run when its client holds every capability of some entry; none are
 * needed when there is no entry.
 */
export type FaceRequestNeeds = readonly (readonly string[])[];

/**
 * Whether the client of the request `ctx` may use `capability` (the HTTP face's OAuth scopes and
 * grants). Asked for each request, since a client's token may change between the requests of one
 * session.
 */
export type FaceMayUse = (capability: string, ctx: ServerContext) => boolean;

/** An MCP server capability a source offers, which one of its requests uses. */
type _Offered = 'resources' | 'prompts' | 'completions' | 'logging';

/** The server capability each request method uses, as the XProtocol endpoint routes them. */
const _OFFERED: Record<McpRequestMethod, _Offered> = {
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'resources/subscribe': 'resources',
  'resources/unsubscribe': 'resources',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'completion/complete': 'completions',
  'logging/setLevel': 'logging',
};

const _LISTS: ReadonlySet<string> = new Set(['resources/list', 'resources/templates/list', 'prompts/list']);

/** The face's sources of resources, prompts, completions and logging, as the scope rule sees them. */
export interface _ScopeSources {
  /** The sources offering `capability`, in configuration order. */
  offering(capability: _Offered): readonly string[];
  /** The namespaces the capabilities of `source` are named under. */
  namespaces(source: string): readonly string[];
  /** Where the entries listed so far live; none before the first listing. */
  routes(): _GatewayRoutes | undefined;
}

/** True for a request of a source's resources, prompts, completions or log level (not a listing). */
export function _needsSource(method: string): boolean {
  return isMcpRequestMethod(method) && !_LISTS.has(method);
}

/**
 * What the request `method` with `params` needs of a source other than a tool's (see
 * {@link FaceRequestNeeds}), from what the listings told so far: nothing for a listing or a
 * method outside the XProtocol endpoint's vocabulary.
 */
export function _sourceRequestNeeds(
  method: string,
  params: Record<string, unknown> | undefined,
  sources: _ScopeSources,
): FaceRequestNeeds {
  if (!_needsSource(method)) return [];
  const request = method as McpRequestMethod;
  const offering = sources.offering(_OFFERED[request]);
  const targets = sources.routes()?.targets(request, params, offering) ?? offering;
  return targets.map((source) => _needs(sources.namespaces(source), request));
}

/**
 * The check the face's servers make once they chose a request's source: the error refusing
 * `method` there when the client may not use it; nothing without `mayUse` (every client may use
 * everything).
 */
export function _sourceCheck(
  mayUse: FaceMayUse | undefined,
  namespaces: (source: string) => readonly string[],
): _SourceCheck | undefined {
  if (!mayUse) return undefined;
  return (source, method, ctx) => {
    if (!isMcpRequestMethod(method)) return undefined;
    const missing = _needs(namespaces(source), method).filter((capability) => !mayUse(capability, ctx));
    return missing.length === 0 ? undefined : _insufficientScope(missing, `${method} on ${source}`);
  };
}

/**
 * The JSON-RPC error of a request refused by the face's servers for a scope its client lacks
 * (the HTTP face refuses most such requests before, with `403`): it names what to ask for.
 */
export function _insufficientScope(missing: readonly string[], what: string): ProtocolError {
  const scope = missing.join(' ');
  return new ProtocolError(
    -32000,
    `Forbidden: ${what} needs the scope ${scope}, which this client's scopes and grants do not give`,
    { error: 'insufficient_scope', scope },
  );
}

/** The capabilities `method` needs on a source whose capabilities are named under `namespaces`. */
function _needs(namespaces: readonly string[], method: McpRequestMethod): string[] {
  // An XProtocol endpoint that announces no namespace: nothing names its capabilities, so only a
  // client that may use everything (`*`) reaches it.
  if (namespaces.length === 0) return ['*'];
  return namespaces.map((namespace) => mcpRequestCapability(namespace, method));
}
