/**
 * Reading an endpoint's announce and choosing which one, written from docs/protocol.md §10.3
 * alone (the checks a caller needs to seal to the endpoint: the required fields' types, the
 * `x25519` key and its tag, and §10.3's "Which announce"). It imports nothing from this
 * repository: it is one part of an independent XProtocol client that proves the document is
 * enough to interoperate.
 *
 * @module
 */
import { parseStrictJson, RuleError } from './canonical-json.mjs';
import { keyBytes } from './ed25519.mjs';
import { tagsNamed, verifyEvent } from './event.mjs';
import { isLowOrder } from './x25519.mjs';

const REQUIRED = {
  display_name: 'string',
  adapter_version: 'string',
  x25519: 'string',
  relays: 'array',
  mcp_sources: 'array',
  xprotocol_sources: 'array',
  counts: 'object',
  low_quality_schemas: 'array',
};
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** @param {string} field @param {string} expected @returns {never} */
function refuse(field, expected) {
  throw new RuleError('§10.3', `announce payload ${field}: expected ${expected}`);
}

/**
 * Verifies and reads one announce event (§10.3).
 *
 * @param {unknown} value the parsed event
 * @returns {{ event: import('./event.mjs').XpEvent, payload: AnnouncePayload }}
 */
export function readAnnounce(value) {
  const event = verifyEvent(value);
  if (event.kind !== 'xp.endpoint.announce')
    throw new RuleError('§10.3', `expected kind xp.endpoint.announce, got ${event.kind}`);
  const payload = /** @type {AnnouncePayload} */ (parseStrictJson(event.content));
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    refuse('(payload)', 'a JSON object');
  for (const [field, type] of Object.entries(REQUIRED)) {
    const v = payload[field];
    const actual = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
    if (actual !== type) refuse(field, `a required ${type}`);
  }
  if (payload.display_name.trim() === '' || [...payload.display_name].length > 256)
    refuse('display_name', '1 to 256 characters, not only white space');
  if (!SEMVER.test(payload.adapter_version) || payload.adapter_version.length > 64)
    refuse('adapter_version', 'a SemVer 2.0.0 version');
  try {
    if (isLowOrder(keyBytes('x25519', payload.x25519))) refuse('x25519', 'a key not of low order');
  } catch (err) {
    if (err instanceof RuleError && err.rule === '§10.3') throw err;
    refuse('x25519', '"x25519:" and 64 lowercase hex digits');
  }
  const tag = tagsNamed(event, 'x25519');
  if (tag.length !== 1 || tag[0][1] !== payload.x25519)
    throw new RuleError('§10.3', 'the x25519 tag and the payload disagree');
  return { event, payload };
}

/**
 * Which announce a caller reads (§10.3): the latest `created_at`, then the smallest id; that one
 * only, even when it is refused.
 *
 * @param {unknown[]} announces parsed events as the relays sent them
 * @returns {{ event: import('./event.mjs').XpEvent, payload: AnnouncePayload }}
 */
export function chooseAnnounce(announces) {
  const candidates = announces.filter(
    (a) =>
      typeof a === 'object' &&
      a !== null &&
      Number.isSafeInteger(/** @type {any} */ (a).created_at) &&
      typeof (/** @type {any} */ (a).id) === 'string',
  );
  if (candidates.length === 0) throw new RuleError('§10.3', 'no announce on the relays');
  const chosen = candidates.reduce((best, a) => {
    const [x, y] = [/** @type {any} */ (a), /** @type {any} */ (best)];
    if (x.created_at !== y.created_at) return x.created_at > y.created_at ? a : best;
    return x.id < y.id ? a : best;
  });
  return readAnnounce(chosen);
}

/**
 * @typedef {{ display_name: string, adapter_version: string, x25519: string, relays: string[],
 *   mcp_sources: { name: string, transport: string, namespace: string, tool_count: number,
 *   prompt_count: number }[], [field: string]: unknown }} AnnouncePayload
 */
