/**
 * What kind of adapter a configuration describes (docs/config.md, "A pure MCP gateway"), decided
 * once from a few counts so the loader's checks, its defaults and the runtime agree:
 * - `mcp_gateway`: an MCP face over the `mcp_sources`, and nothing of XProtocol — no relay, no
 *   `xprotocol_sources`, so no endpoint, no announce and no identity;
 * - `xprotocol`: everything else (the mcp_sources served through relays, XProtocol endpoints as
 *   MCP tools, or both).
 * @module
 */

/** The kind of adapter a configuration describes. */
export type AdapterMode = 'mcp_gateway' | 'xprotocol';

/** What `mcp_server.expose` may list. */
export type ExposedList = 'xprotocol_sources' | 'mcp_sources';

/** The counts the mode and the default `expose` follow from. */
export interface _ModeFacts {
  readonly relayUrls: number;
  readonly mcpSources: number;
  readonly xprotocolSources: number;
  /** Whether there is an `mcp_server` section. */
  readonly mcpServer: boolean;
  /** `mcp_server.expose` as written; `undefined` when left out. */
  readonly expose: readonly ExposedList[] | undefined;
}

/**
 * `mcp_server.expose` when left out: without a relay the mcp_sources could serve no one but the
 * face, so they are exposed there (beside any xprotocol_sources); with a relay, the face shows the
 * XProtocol endpoints, as it always did.
 */
export function _defaultExpose(facts: _ModeFacts): ExposedList[] {
  if (facts.relayUrls === 0 && facts.mcpSources > 0) {
    return facts.xprotocolSources > 0 ? ['xprotocol_sources', 'mcp_sources'] : ['mcp_sources'];
  }
  return ['xprotocol_sources'];
}

/** What the face exposes: `expose` as written, else its default; nothing without `mcp_server`. */
export function _exposed(facts: _ModeFacts): readonly ExposedList[] {
  if (!facts.mcpServer) return [];
  return facts.expose ?? _defaultExpose(facts);
}

/** The mode: `mcp_gateway` when the face over the mcp_sources is all there is. */
export function _modeOf(facts: _ModeFacts): AdapterMode {
  const gateway =
    facts.relayUrls === 0 &&
    facts.xprotocolSources === 0 &&
    facts.mcpSources > 0 &&
    _exposed(facts).includes('mcp_sources');
  return gateway ? 'mcp_gateway' : 'xprotocol';
}
