/**
 * The well-known document (`/.well-known/xprotocol-endpoint`), read and fetched as
 * docs/protocol.md §10.10 says a reader does. It imports nothing from this repository: it is one
 * part of an independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { RuleError } from './canonical-json.mjs';
import { keyBytes } from './ed25519.mjs';

/** The largest document, in bytes, and the most relays it may list (§10.10). */
export const MAX_BYTES = 65_536;
export const MAX_RELAYS = 32;
const PATH = '/.well-known/xprotocol-endpoint';

/** A document a reader refuses; `field` is the member at fault, or null for the whole value. */
export class WellKnownRefused extends RuleError {
  /** @param {string | null} field @param {string} message */
  constructor(field, message) {
    super('§10.10', field === null ? message : `${field}: ${message}`);
    this.field = field;
  }
}

/** @param {string} field @param {unknown} value @param {'ed25519' | 'x25519'} type */
function keyString(field, value, type) {
  try {
    keyBytes(type, value);
  } catch (error) {
    throw new WellKnownRefused(field, /** @type {Error} */ (error).message);
  }
  return /** @type {string} */ (value);
}

/** @param {string} field @param {unknown} value @param {string[]} schemes */
function url(field, value, schemes) {
  let parsed;
  try {
    parsed = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !schemes.includes(parsed.protocol))
    throw new WellKnownRefused(
      field,
      `expected a ${schemes.map((s) => `${s}//`).join(' or ')} URL, got ${JSON.stringify(value)}`,
    );
  return /** @type {string} */ (value);
}

/** @param {string} field @param {unknown} value */
function stringList(field, value) {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new WellKnownRefused(field, 'expected an array of strings');
  return value;
}

/**
 * Reads a parsed document: the members of the table, checked row by row; every other member is
 * ignored (left out of what is kept).
 *
 * @param {unknown} doc
 * @returns {Record<string, unknown>}
 */
export function readWellKnown(doc) {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new WellKnownRefused(null, 'expected a JSON object');
  const d = /** @type {Record<string, unknown>} */ (doc);
  if (d.version !== 'xp1')
    throw new WellKnownRefused('version', `expected "xp1", got ${JSON.stringify(d.version)}`);
  /** @type {Record<string, unknown>} */
  const kept = {
    version: 'xp1',
    public_key: keyString('public_key', d.public_key, 'ed25519'),
    x25519: keyString('x25519', d.x25519, 'x25519'),
  };
  if (!Array.isArray(d.relays) || d.relays.length < 1 || d.relays.length > MAX_RELAYS)
    throw new WellKnownRefused('relays', `expected an array of 1 to ${MAX_RELAYS} relay URLs`);
  kept.relays = d.relays.map((relay) => url('relays', relay, ['ws:', 'wss:']));
  if ('schema_url' in d) kept.schema_url = url('schema_url', d.schema_url, ['http:', 'https:']);
  if ('adapter' in d) {
    if (typeof d.adapter !== 'boolean') throw new WellKnownRefused('adapter', 'expected true or false');
    kept.adapter = d.adapter;
  }
  if ('display_name' in d) {
    if (typeof d.display_name !== 'string') throw new WellKnownRefused('display_name', 'expected a string');
    kept.display_name = d.display_name;
  }
  for (const field of ['mcp_sources', 'xprotocol_sources'])
    if (field in d) kept[field] = stringList(field, d[field]);
  if ('delegation_chain' in d) {
    const chain = d.delegation_chain;
    if (
      !Array.isArray(chain) ||
      chain.length === 0 ||
      !chain.every((l) => l !== null && typeof l === 'object' && !Array.isArray(l))
    )
      throw new WellKnownRefused('delegation_chain', 'expected a non-empty array of objects');
    kept.delegation_chain = chain;
  }
  if ('rotated_from' in d) {
    const r = d.rotated_from;
    if (r === null || typeof r !== 'object' || Array.isArray(r))
      throw new WellKnownRefused('rotated_from', 'expected an object');
    kept.rotated_from = r;
  }
  return kept;
}

/**
 * Fetches and reads the document of `origin` (`http://` only for a loopback host): status 200
 * only (redirects are not followed), the body read up to {@link MAX_BYTES} and refused past it.
 *
 * @param {string} origin e.g. `http://127.0.0.1:8766`
 */
export async function fetchWellKnown(origin) {
  const base = new URL(origin);
  const loopback =
    base.hostname === 'localhost' || base.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(base.hostname);
  if (base.protocol !== 'https:' && !(base.protocol === 'http:' && loopback))
    throw new WellKnownRefused(null, `expected https://, or http:// for a loopback host, got ${origin}`);
  const response = await fetch(new URL(PATH, base), { redirect: 'manual' });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new WellKnownRefused(null, `expected status 200, got ${response.status}`);
  }
  const chunks = [];
  let size = 0;
  for await (const chunk of /** @type {AsyncIterable<Uint8Array>} */ (response.body ?? [])) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) {
      await response.body?.cancel().catch(() => {});
      throw new WellKnownRefused(null, `expected at most ${MAX_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  let doc;
  try {
    doc = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new WellKnownRefused(null, 'expected a JSON body');
  }
  return readWellKnown(doc);
}
