/**
 * Sealed events: building a sealed request or answer, and opening one with the addressing step
 * first, written from docs/protocol.md §4 (step 3a), §6.3 and §10.7 alone. It imports nothing from
 * this repository: it is one part of an independent XProtocol client that proves the document is
 * enough to interoperate.
 *
 * @module
 */
import { canonicalJson, RuleError } from './canonical-json.mjs';
import { keyBytes } from './ed25519.mjs';
import { signEvent, tagsNamed, verifyEvent } from './event.mjs';
import { decryptPayload, encryptPayload } from './payload.mjs';
import { conversationKey, isLowOrder } from './x25519.mjs';

/**
 * @typedef {{ ed25519: { publicKey: string, privateKey: import('node:crypto').KeyObject },
 *   x25519: { publicKey: string, privateKey: import('node:crypto').KeyObject } }} Identity
 */

/**
 * Seals a payload to a recipient (§6.3): tags p, x25519, e (answers), further tags, expiration.
 *
 * @param {Identity} sender
 * @param {{ ed25519: string, x25519: string }} recipient
 * @param {{ kind: string, created_at: number, payload?: unknown, plaintext?: string, replyTo?: string,
 *   expiration?: number, extraTags?: string[][], nonce?: Buffer }} input
 */
export function sealEvent(sender, recipient, input) {
  const plaintext = input.plaintext ?? canonicalJson(input.payload);
  const key = conversationKey(
    sender.x25519.privateKey,
    recipient.x25519,
    sender.ed25519.publicKey,
    recipient.ed25519,
  );
  const tags = [
    ['p', recipient.ed25519],
    ['x25519', sender.x25519.publicKey],
    ...(input.replyTo ? [['e', input.replyTo]] : []),
    ...(input.extraTags ?? []),
    ...(input.expiration === undefined ? [] : [['expiration', String(input.expiration)]]),
  ];
  return signEvent(sender.ed25519, {
    created_at: input.created_at,
    kind: input.kind,
    tags,
    content: encryptPayload(key, plaintext, input.nonce),
  });
}

/**
 * The addressing step of §4 (3a): exactly one `p` tag of two elements naming `me`; exactly one
 * `x25519` tag of two elements with a well-formed key that is not of low order. Returns that key.
 *
 * @param {import('./event.mjs').XpEvent} event @param {string} me
 */
export function checkAddressing(event, me) {
  const p = tagsNamed(event, 'p');
  if (p.length !== 1 || p[0].length !== 2)
    throw new RuleError('§4 step 3a', 'expected exactly one p tag of two elements');
  if (p[0][1] !== me) throw new RuleError('§4 step 3a', `the p tag names ${p[0][1]}, not ${me}`);
  const x = tagsNamed(event, 'x25519');
  if (x.length !== 1 || x[0].length !== 2)
    throw new RuleError('§4 step 3a', 'expected exactly one x25519 tag of two elements');
  if (isLowOrder(keyBytes('x25519', x[0][1])))
    throw new RuleError('§4 step 3a', 'the x25519 key is of low order');
  return x[0][1];
}

/**
 * Opens a sealed event addressed to `me` (§6.3): verify (§4 steps 1–3), addressing (3a), decrypt.
 *
 * @param {unknown} value the parsed event
 * @param {Identity} me
 */
export function openEvent(value, me) {
  const event = verifyEvent(value);
  const theirX25519 = checkAddressing(event, me.ed25519.publicKey);
  const key = conversationKey(me.x25519.privateKey, theirX25519, me.ed25519.publicKey, event.pubkey);
  return { event, ...decryptPayload(key, event.content) };
}
