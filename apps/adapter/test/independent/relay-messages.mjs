/**
 * Relay messages: the client frames, and a strict reader of what a relay sends, written from
 * docs/protocol.md §9 (the message table, §9.1's OK rules and §9.2's reasons) alone. It imports
 * nothing from this repository: it is one part of an independent XProtocol client that proves the
 * document is enough to interoperate.
 *
 * @module
 */
import { parseStrictJson, RuleError } from './canonical-json.mjs';

/** The six reason prefixes of §9.2, and the messages each may appear on. */
export const REASON_PREFIXES = {
  'invalid:': ['OK false', 'CLOSED', 'NOTICE'],
  'duplicate:': ['OK true'],
  'rate-limited:': ['OK false'],
  'restricted:': ['OK false', 'CLOSED', 'NOTICE'],
  'too-large:': ['OK false'],
  'error:': ['OK false', 'CLOSED'],
};
const RETRY_HINT = /retry after ([1-9][0-9]*) s/;

/** @param {string} why @returns {never} */
function bad(why) {
  throw new RuleError('§9', `not a well-formed relay message: ${why}`);
}

/** @param {unknown} v */
const isSubId = (v) => typeof v === 'string' && v.length >= 1 && v.length <= 64;

/**
 * The prefix of a reason and where §9.2 allows it; a prefix the client does not know reads as
 * `invalid:` (§9.2).
 *
 * @param {string} reason @param {string} on e.g. "OK false"
 */
export function reasonPrefix(reason, on) {
  const prefix = reason.slice(0, reason.indexOf(':') + 1);
  const known = Object.hasOwn(REASON_PREFIXES, prefix) ? prefix : 'invalid:';
  if (Object.hasOwn(REASON_PREFIXES, prefix) && !REASON_PREFIXES[prefix].includes(on)) {
    bad(`the reason prefix ${prefix} is not sent on ${on}`);
  }
  return known;
}

/**
 * The wait a `rate-limited:` reason asks for, in seconds (§9.2), or null.
 *
 * @param {string} reason
 */
export function retryAfter(reason) {
  const m = RETRY_HINT.exec(reason);
  return m ? Number(m[1]) : null;
}

/**
 * Reads one relay → client text frame strictly (§9's table).
 *
 * @param {string} text
 * @returns {{ type: string, [k: string]: unknown }}
 */
export function readRelayMessage(text) {
  const m = parseStrictJson(text);
  if (!Array.isArray(m) || typeof m[0] !== 'string') bad('expected an array whose first element is its type');
  switch (m[0]) {
    case 'EVENT':
      if (m.length !== 3 || !isSubId(m[1]) || typeof m[2] !== 'object' || m[2] === null)
        bad('EVENT is [type, sub_id, event]');
      return { type: 'EVENT', subId: m[1], event: m[2] };
    case 'OK': {
      if (
        m.length !== 4 ||
        typeof m[1] !== 'string' ||
        typeof m[2] !== 'boolean' ||
        typeof m[3] !== 'string'
      ) {
        bad('OK is [type, event_id, accepted, reason]');
      }
      if (m[2] && m[3] !== '' && !m[3].startsWith('duplicate: '))
        bad('an accepted OK has an empty reason or duplicate:');
      if (!m[2]) reasonPrefix(m[3], 'OK false');
      if (m[3].startsWith('rate-limited:') && retryAfter(m[3]) === null)
        bad('a rate-limited: reason carries "retry after N s"');
      return { type: 'OK', id: m[1], accepted: m[2], reason: m[3] };
    }
    case 'EOSE':
      if (m.length !== 2 || !isSubId(m[1])) bad('EOSE is [type, sub_id]');
      return { type: 'EOSE', subId: m[1] };
    case 'CLOSED':
      if (m.length !== 3 || !isSubId(m[1]) || typeof m[2] !== 'string')
        bad('CLOSED is [type, sub_id, reason]');
      reasonPrefix(m[2], 'CLOSED');
      return { type: 'CLOSED', subId: m[1], reason: m[2] };
    case 'NOTICE':
      if (m.length !== 2 || typeof m[1] !== 'string') bad('NOTICE is [type, reason]');
      reasonPrefix(m[1], 'NOTICE');
      return { type: 'NOTICE', reason: m[1] };
    case 'AUTH':
      if (m.length !== 2 || typeof m[1] !== 'string') bad('AUTH is [type, challenge]');
      return { type: 'AUTH', challenge: m[1] };
    default:
      return bad(`unknown message type ${JSON.stringify(m[0])}`);
  }
}

/** @param {string} eventText the event as `eventJson` writes it (§2.4) */
export const eventFrame = (eventText) => `["EVENT",${eventText}]`;
/** @param {string} subId @param {object[]} filters */
export const reqFrame = (subId, filters) => JSON.stringify(['REQ', subId, ...filters]);
/** @param {string} subId */
export const closeFrame = (subId) => JSON.stringify(['CLOSE', subId]);
