/**
 * The well-known document (docs/protocol.md §10.10): what `GET /.well-known/xprotocol-endpoint`
 * on an endpoint's host answers — its keys, relays and catalog URL — and the one reader of it, so
 * an adapter resolving `xp://host` and a conformance suite judge a document the same way.
 * @module
 */

/** The path of the well-known document. */
export const WELL_KNOWN_PATH = '/.well-known/xprotocol-endpoint';

/** Largest well-known document a reader takes, in bytes. */
export const MAX_WELL_KNOWN_BYTES = 64 * 1024;

/** The well-known document. */
export interface WellKnownDocument {
  version: 'xp1';
  /** The endpoint's identity, `ed25519:…`. */
  public_key: string;
  /** Where to seal requests, `x25519:…`. */
  x25519: string;
  /** Relays the endpoint listens on, `ws://` or `wss://`. */
  relays: string[];
  /** The catalog over HTTP (`GET`, `?cursor=&limit=`), `http://` or `https://`. */
  schema_url?: string;
  /** True when the endpoint is an adapter in front of MCP servers. */
  adapter?: boolean;
  display_name?: string;
  mcp_sources?: string[];
  xprotocol_sources?: string[];
  /** The endpoint's delegation chain, root first, as its announce discloses it (§10.3). */
  delegation_chain?: unknown[];
  /** The rotation that made this key the successor of another (§11.8), as the announce has it. */
  rotated_from?: unknown;
}

const _KEY = { ed25519: /^ed25519:[0-9a-f]{64}$/, x25519: /^x25519:[0-9a-f]{64}$/ };
const _RELAY = /^wss?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/;
const _HTTP = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/;
const _MAX_RELAYS = 32;

/**
 * Reads a well-known document from untrusted JSON. Returns the document (the known fields only;
 * other members are ignored, so a later version may add some), or every problem found, each
 * naming the field and what was expected.
 * @example
 * parseWellKnownDocument(JSON.parse(body)); // { ok: true, document } or { ok: false, problems }
 */
export function parseWellKnownDocument(
  value: unknown,
): { ok: true; document: WellKnownDocument } | { ok: false; problems: string[] } {
  if (!_isObject(value)) return { ok: false, problems: ['expected a JSON object'] };
  const problems: string[] = [];
  if (value.version !== 'xp1') problems.push(`version: expected "xp1", got ${_show(value.version)}`);
  if (!_matches(value.public_key, _KEY.ed25519))
    problems.push('public_key: expected ed25519:<64 lowercase hex>');
  if (!_matches(value.x25519, _KEY.x25519)) problems.push('x25519: expected x25519:<64 lowercase hex>');
  if (
    !Array.isArray(value.relays) ||
    value.relays.length === 0 ||
    value.relays.length > _MAX_RELAYS ||
    !value.relays.every((relay) => _matches(relay, _RELAY))
  ) {
    problems.push(`relays: expected 1 to ${_MAX_RELAYS} ws:// or wss:// URLs`);
  }
  if (value.schema_url !== undefined && !_matches(value.schema_url, _HTTP))
    problems.push('schema_url: expected an http:// or https:// URL');
  if (value.adapter !== undefined && typeof value.adapter !== 'boolean')
    problems.push(`adapter: expected true or false, got ${_show(value.adapter)}`);
  if (value.display_name !== undefined && typeof value.display_name !== 'string')
    problems.push(`display_name: expected a string, got ${_show(value.display_name)}`);
  for (const field of ['mcp_sources', 'xprotocol_sources'] as const) {
    const names = value[field];
    if (names !== undefined && (!Array.isArray(names) || !names.every((n) => typeof n === 'string')))
      problems.push(`${field}: expected an array of source names`);
  }
  const chain = value.delegation_chain;
  if (chain !== undefined && (!Array.isArray(chain) || chain.length === 0 || !chain.every(_isObject)))
    problems.push('delegation_chain: expected a non-empty array of delegations, root first');
  if (value.rotated_from !== undefined && !_isObject(value.rotated_from))
    problems.push('rotated_from: expected a rotation object');
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, document: _known(value) };
}

/** The document's known members, in the order of {@link WellKnownDocument}. */
function _known(value: Record<string, unknown>): WellKnownDocument {
  const document: Record<string, unknown> = {};
  for (const field of _FIELDS) if (value[field] !== undefined) document[field] = value[field];
  return document as unknown as WellKnownDocument;
}

const _FIELDS = [
  'version',
  'public_key',
  'x25519',
  'relays',
  'schema_url',
  'adapter',
  'display_name',
  'mcp_sources',
  'xprotocol_sources',
  'delegation_chain',
  'rotated_from',
] as const;

function _matches(value: unknown, pattern: RegExp): boolean {
  return typeof value === 'string' && pattern.test(value);
}

function _show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

function _isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
