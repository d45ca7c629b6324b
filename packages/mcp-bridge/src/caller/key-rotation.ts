/**
 * Which key rotation a caller follows (docs/protocol.md §11.8, "On relays" and "Who follows, and
 * when"): from the `xp.key.rotate` events its relays hold for a key, the valid rotations whose
 * old key is that key and the event's signer; the latest of them. Whether to send to the new key
 * or, within the grace period, still to the old one is the caller's.
 * @module
 */
import { type Rotation, type SignatureBackend, verifyRotation, type XpEvent } from '@xprotocol/crypto';

/**
 * The rotation of `oldKey` among `events` (verified events, as a relay pool delivers them), or
 * `undefined`. An event counts when it is signed by `oldKey` and its content is a valid rotation
 * (shape, id, both signatures) whose `old_key` is `oldKey`; among several, the latest
 * `created_at` wins, and the smallest id breaks a tie, so every caller picks the same one.
 */
export function newestRotation(
  events: readonly XpEvent[],
  oldKey: string,
  signatures: SignatureBackend,
): Rotation | undefined {
  let newest: Rotation | undefined;
  for (const event of events) {
    if (event.pubkey !== oldKey) continue;
    let content: unknown;
    try {
      content = JSON.parse(event.content);
    } catch {
      continue;
    }
    const verdict = verifyRotation(content, signatures);
    if (!verdict.ok || verdict.rotation.old_key !== oldKey) continue;
    const rotation = verdict.rotation;
    if (
      newest === undefined ||
      rotation.created_at > newest.created_at ||
      (rotation.created_at === newest.created_at && rotation.id < newest.id)
    )
      newest = rotation;
  }
  return newest;
}
