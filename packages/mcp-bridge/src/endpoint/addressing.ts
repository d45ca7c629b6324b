/**
 * Step 3a of docs/protocol.md §4, the endpoint's own: is the request addressed to this endpoint,
 * and does it name a key an answer can be sealed to? Checked right after the signature, before
 * anything is answered: an `EXPIRED` or `NOT_FOUND` sealed to a key the sender did not choose
 * for itself (another recipient's `p`, a low-order or malformed `x25519`) would be an oracle, and
 * one the sender cannot read is noise. What fails here is dropped, never answered.
 * @module
 */
import { isKeyString, isLowOrderX25519, parseKey, type XpEvent } from '@xprotocol/crypto';
import { CATALOG_KIND } from '@xprotocol/wire';

/**
 * Why `event` is not a request this endpoint may answer, or `undefined`: exactly one `p` tag of
 * two elements naming `self`; exactly one `x25519` tag of two elements with a well-formed key
 * that is not of low order (a catalog request, answered in the clear, may have none).
 */
export function _addressingProblem(event: XpEvent, self: string): string | undefined {
  const recipients = event.tags.filter((tag) => tag[0] === 'p');
  if (recipients.length !== 1) return `expected exactly one p tag, got ${recipients.length}`;
  const [recipient] = recipients as [readonly string[]];
  if (recipient.length !== 2) return `expected the p tag as ["p", <key>], got ${recipient.length} elements`;
  if (recipient[1] !== self) return 'not addressed to this endpoint (p tag)';
  const keys = event.tags.filter((tag) => tag[0] === 'x25519');
  if (keys.length === 0 && event.kind === CATALOG_KIND) return undefined;
  if (keys.length !== 1) return `expected exactly one x25519 tag, got ${keys.length}`;
  const [key] = keys as [readonly string[]];
  if (key.length !== 2) return `expected the x25519 tag as ["x25519", <key>], got ${key.length} elements`;
  if (!isKeyString(key[1], 'x25519'))
    return 'expected the x25519 tag\'s key as "x25519:" and 64 lowercase hex digits';
  if (isLowOrderX25519(parseKey(key[1] as string, 'x25519').bytes))
    return "the x25519 tag's key is a point of low order: nothing can be sealed to it";
  return undefined;
}
