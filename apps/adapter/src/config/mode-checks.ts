/**
 * The checks that follow from the adapter's mode (config/mode.ts), on the raw interpolated values:
 * the identity is required unless the file is a pure MCP gateway; in a pure MCP gateway the keys
 * that only an XProtocol endpoint uses are named as ignored; and a face that would list no tool
 * says what it exposes and how to add the mcp_sources.
 * @module
 */
import type { _Collector } from './_collector.js';
import { _exposed, type _ModeFacts, _modeOf, type ExposedList } from './mode.js';

type Obj = Record<string, unknown>;

function _obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}
function _count(v: unknown): number {
  return Array.isArray(v) ? v.length : 0;
}

/** The counts the mode follows from, read from the raw file (malformed values count as absent). */
export function _rawModeFacts(root: Obj): _ModeFacts {
  const server = _obj(root.mcp_server);
  const expose = Array.isArray(server?.expose)
    ? server.expose.filter((v): v is ExposedList => v === 'mcp_sources' || v === 'xprotocol_sources')
    : undefined;
  return {
    relayUrls: _count(_obj(root.relay)?.urls),
    // An OpenAPI service is served as a wrapped MCP server is.
    mcpSources: _count(root.mcp_sources) + _count(root.openapi_sources),
    xprotocolSources: _count(root.xprotocol_sources),
    mcpServer: server !== undefined,
    expose,
  };
}

/** Runs the mode's checks; true when the file is a pure MCP gateway. */
export function _modeChecks(c: _Collector, root: Obj, facts: _ModeFacts): boolean {
  if (_modeOf(facts) === 'mcp_gateway') {
    _ignoredInGateway(c, root);
    return true;
  }
  if (!Object.hasOwn(root, 'identity')) {
    c.error(['identity'], 'missing, expected a mapping with key_file (and display_name)', 'value');
  }
  _faceExposesNothing(c, _obj(root.mcp_server), facts);
  return false;
}

/** A pure MCP gateway signs nothing and has no XProtocol endpoint: what only those use is ignored. */
function _ignoredInGateway(c: _Collector, root: Obj): void {
  if (Object.hasOwn(_obj(root.identity) ?? {}, 'key_file')) {
    c.warn(
      'IGNORED_KEY',
      ['identity', 'key_file'],
      'ignored: a pure MCP gateway (no relay.urls, no xprotocol_sources) signs nothing, so it loads no key',
      'key',
    );
  }
  if (Object.hasOwn(root, 'access')) {
    c.warn(
      'IGNORED_KEY',
      ['access'],
      'ignored: a pure MCP gateway has no XProtocol endpoint, and access governs XProtocol callers only (guard the MCP face with mcp_server.auth or oauth)',
      'key',
    );
  }
  if (Object.hasOwn(_obj(root.discovery) ?? {}, 'well_known_port')) {
    c.warn(
      'IGNORED_KEY',
      ['discovery', 'well_known_port'],
      'ignored: a pure MCP gateway has no XProtocol endpoint for discovery to describe',
      'key',
    );
  }
}

/** A face whose exposed lists are all empty lists only `search_tools`: say so, and how to fix it. */
function _faceExposesNothing(c: _Collector, server: Obj | undefined, facts: _ModeFacts): void {
  if (server === undefined) return;
  const exposed = _exposed(facts);
  const sizes: Record<ExposedList, number> = {
    mcp_sources: facts.mcpSources,
    xprotocol_sources: facts.xprotocolSources,
  };
  // An empty or malformed expose is the shape check's to report.
  if (exposed.length === 0 || exposed.some((list) => sizes[list] > 0)) return;
  const what =
    facts.expose === undefined
      ? 'it exposes xprotocol_sources (the default with a relay)'
      : `it exposes ${exposed.join(' and ')}`;
  const fix =
    facts.mcpSources > 0 && !exposed.includes('mcp_sources')
      ? '; add expose: [mcp_sources] to serve the mcp_sources on the face too'
      : '';
  c.warn(
    'FACE_EXPOSES_NOTHING',
    facts.expose === undefined ? ['mcp_server'] : ['mcp_server', 'expose'],
    `the MCP face lists only search_tools: ${what} and there are none${fix}`,
    'key',
  );
}
