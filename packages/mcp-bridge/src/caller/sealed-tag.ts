/**
 * A tag value only the two parties of a request can read: sealed with their conversation key
 * (docs/protocol.md §5), the key the event's content uses. The `mcp` session tag and the
 * `delegation` tag both carry one; each adds its own tag name and checks of what it holds.
 * @module
 */
import {
  type CipherBackend,
  conversationKey,
  decryptPayload,
  encryptPayload,
  getTags,
  type Identity,
  isKeyString,
  type PublicIdentity,
  parseKey,
  type XpEvent,
} from '@xprotocol/crypto';

/** `text` sealed from `sender` to `recipient`. */
export function _sealTagValue(
  text: string,
  sender: Identity,
  recipient: PublicIdentity,
  cipher: CipherBackend,
): string {
  const key = conversationKey(
    sender.x25519.secretKey,
    parseKey(recipient.x25519, 'x25519').bytes,
    sender.ed25519.publicKey,
    parseKey(recipient.ed25519, 'ed25519').bytes,
    cipher,
  );
  return encryptPayload(text, key, { backend: cipher });
}

/**
 * The text of `sealed`, a value of the `tag` tag of a verified `event` addressed to `recipient`,
 * or why it cannot be read: the event has no sender's `x25519` tag, or the value does not decrypt.
 */
export function _openTagValue(
  event: XpEvent,
  tag: string,
  sealed: string,
  recipient: Identity,
  cipher: CipherBackend,
): { ok: true; text: string } | { ok: false; reason: string } {
  const senderX = getTags(event, 'x25519')[0]?.[1];
  if (!isKeyString(senderX, 'x25519'))
    return { ok: false, reason: `the ${tag} tag needs the sender's x25519 tag` };
  try {
    const key = conversationKey(
      recipient.x25519.secretKey,
      parseKey(senderX as string, 'x25519').bytes,
      recipient.ed25519.publicKey,
      parseKey(event.pubkey, 'ed25519').bytes,
      cipher,
    );
    return { ok: true, text: decryptPayload(sealed, key, { backend: cipher }) };
  } catch (error) {
    return { ok: false, reason: `the ${tag} tag does not decrypt: ${(error as Error).message}` };
  }
}
