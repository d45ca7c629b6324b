/**
 * XProtocol events: shape, id, size, signing and the verification order of steps 1–3, written
 * from docs/protocol.md §2.2–§2.4, §3 and §4 alone. It imports nothing from this repository: it is
 * one part of an independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { canonicalJson, parseStrictJson, RuleError } from './canonical-json.mjs';
import { keyBytes, signBytes, verifyBytes } from './ed25519.mjs';

/** The seven fields of an event, in the order §2.4 measures its size in. */
export const EVENT_FIELDS = ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'];
/** The largest event, in UTF-8 bytes of its JSON (§2.4). */
export const MAX_EVENT_BYTES = 4_194_304;
const KIND = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const EXPIRATION = /^(0|[1-9][0-9]*)$/;

/** A refusal at one step of §4 (`shape`, `size`, `id` or `signature`). */
export class EventRefused extends RuleError {
  /**
   * @param {'shape' | 'size' | 'id' | 'signature'} code
   * @param {string} rule
   * @param {string} message
   * @param {string | null} [precheck]
   */
  constructor(code, rule, message, precheck = null) {
    super(rule, `${code}: ${message}`);
    this.code = code;
    this.precheck = precheck;
  }
}

/** @param {string} why @returns {never} */
function shape(why) {
  throw new EventRefused('shape', '§2.2', why);
}

/**
 * The id preimage of §2.3.
 *
 * @param {{ pubkey: string, created_at: number, kind: string, tags: string[][], content: string }} e
 */
export function idPreimage(e) {
  return canonicalJson(['xp/1/event', e.pubkey, e.created_at, e.kind, e.tags, e.content]);
}

/** @param {Parameters<typeof idPreimage>[0]} e */
export function eventId(e) {
  return createHash('sha256').update(idPreimage(e), 'utf8').digest('hex');
}

/**
 * The wire JSON of §2.4: the seven fields in the table's order, no whitespace.
 *
 * @param {Record<string, unknown>} event
 */
export function eventJson(event) {
  return JSON.stringify(Object.fromEntries(EVENT_FIELDS.map((f) => [f, event[f]])));
}

/**
 * Signs an event (§2.3, §3); refuses one over 4 MiB (§2.4).
 *
 * @param {{ privateKey: import('node:crypto').KeyObject, publicKey: string }} identity
 * @param {{ created_at: number, kind: string, tags: string[][], content: string }} fields
 * @param {{ allowOversize?: boolean }} [options] `allowOversize` only to test a verifier's refusal
 * @returns {XpEvent}
 */
export function signEvent(identity, fields, options = {}) {
  const unsigned = { pubkey: identity.publicKey, ...fields };
  const id = eventId(unsigned);
  const event = { id, ...unsigned, sig: signBytes(identity.privateKey, Buffer.from(id, 'hex')) };
  const bytes = Buffer.byteLength(eventJson(event), 'utf8');
  if (bytes > MAX_EVENT_BYTES && !options.allowOversize) {
    throw new EventRefused(
      'size',
      '§2.4',
      `a signer refuses an event of ${bytes} bytes, over ${MAX_EVENT_BYTES}`,
    );
  }
  return event;
}

/**
 * Step 1 of §4 (the table of §2.2 and the tag rules at the shape step, then §2.4's size).
 *
 * @param {unknown} value
 */
export function checkShape(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) shape('an event is a JSON object');
  const e = /** @type {Record<string, unknown>} */ (value);
  const names = Object.keys(e);
  for (const f of EVENT_FIELDS) if (!(f in e)) shape(`the field ${f} is missing`);
  for (const n of names)
    if (!EVENT_FIELDS.includes(n)) shape(`the field ${JSON.stringify(n)} is not one of the seven`);
  if (typeof e.id !== 'string' || !/^[0-9a-f]{64}$/.test(e.id)) shape('id: expected 64 lowercase hex digits');
  try {
    keyBytes('ed25519', e.pubkey);
  } catch (err) {
    shape(`pubkey: ${/** @type {Error} */ (err).message}`);
  }
  const t = e.created_at;
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) {
    shape('created_at: expected an integer from 0 to 2^53 − 1');
  }
  if (typeof e.kind !== 'string' || !KIND.test(e.kind))
    shape('kind: expected dot-separated segments of [A-Za-z0-9_-]+');
  if (!Array.isArray(e.tags)) shape('tags: expected an array');
  let expirations = 0;
  for (const tag of /** @type {unknown[]} */ (e.tags)) {
    if (!Array.isArray(tag) || tag.length === 0 || tag.some((x) => typeof x !== 'string')) {
      shape('tags: each tag is a non-empty array of strings');
    }
    if (tag[0] === 'expiration') {
      expirations++;
      const v = tag[1];
      if (v === undefined || !EXPIRATION.test(v) || !Number.isSafeInteger(Number(v))) {
        shape(
          `expiration: expected decimal digits without leading zeros, a safe integer, got ${JSON.stringify(v)}`,
        );
      }
    }
  }
  if (expirations > 1) shape('expiration: at most one per event');
  if (typeof e.content !== 'string') shape('content: expected a string');
  if (typeof e.sig !== 'string' || !/^[0-9a-f]{128}$/.test(e.sig))
    shape('sig: expected 128 lowercase hex digits');
  // No string anywhere may hold a lone surrogate: the id's canonical JSON refuses them.
  try {
    idPreimage(/** @type {any} */ (e));
  } catch (err) {
    shape(/** @type {Error} */ (err).message);
  }
  const bytes = Buffer.byteLength(eventJson(e), 'utf8');
  if (bytes > MAX_EVENT_BYTES) {
    throw new EventRefused('size', '§2.4', `the event is ${bytes} bytes, over ${MAX_EVENT_BYTES}`);
  }
  return /** @type {XpEvent} */ (/** @type {unknown} */ (e));
}

/**
 * Steps 1–3 of §4 on a parsed event: shape and size, id, signature. Returns the event.
 *
 * @param {unknown} value
 * @returns {XpEvent}
 */
export function verifyEvent(value) {
  const e = checkShape(value);
  if (eventId(e) !== e.id) throw new EventRefused('id', '§2.3', 'the id is not the hash of the other fields');
  const { ok, precheck } = verifyBytes(
    Buffer.from(e.sig, 'hex'),
    keyBytes('ed25519', e.pubkey),
    Buffer.from(e.id, 'hex'),
  );
  if (!ok)
    throw new EventRefused(
      'signature',
      '§3',
      `the signature does not verify (${precheck ?? 'equation'})`,
      precheck,
    );
  return e;
}

/**
 * Reads an event's JSON text as §2.2 says, then steps 1–3 of §4.
 *
 * @param {string} text
 */
export function readEventText(text) {
  let value;
  try {
    value = parseStrictJson(text);
  } catch (err) {
    throw new EventRefused('shape', '§2.2', /** @type {Error} */ (err).message);
  }
  return verifyEvent(value);
}

/**
 * The values of the tags named `name` (each tag whole).
 *
 * @param {XpEvent} event
 * @param {string} name
 */
export function tagsNamed(event, name) {
  return event.tags.filter((t) => t[0] === name);
}

/**
 * @typedef {{ id: string, pubkey: string, created_at: number, kind: string, tags: string[][],
 *   content: string, sig: string }} XpEvent
 */
