/**
 * Event ids (docs/protocol.md §2): `id = hex(SHA-256(UTF-8(canonicalJson(["xp/1/event", pubkey,
 * created_at, kind, tags, content]))))`. The leading tag separates event ids from every other
 * signed object of the protocol (delegations, revocations, auth), which use their own.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalJson } from './canonical-json.js';
import { CryptoError } from './errors.js';
import { _checkTemplate, type UnsignedEvent } from './event.js';
import { bytesToHex } from './hex.js';
import { isKeyString } from './key-string.js';
import type { SignatureBackend } from './signature-backend.js';

/** The domain tag that starts every event-id preimage. */
export const EVENT_ID_TAG = 'xp/1/event';

const encoder = new TextEncoder();

/**
 * The canonical preimage of an event id, as a string: the RFC 8785 serialization of
 * `["xp/1/event", pubkey, created_at, kind, tags, content]`. Throws {@link CryptoError}
 * `INVALID_EVENT` naming the field when `event` is not a valid unsigned event.
 * @example
 * eventIdPreimage({ pubkey, created_at: 1700000000, kind: 'a.b', tags: [], content: '' });
 * // '["xp/1/event","ed25519:…",1700000000,"a.b",[],""]'
 */
export function eventIdPreimage(event: UnsignedEvent): string {
  if (!isKeyString(event.pubkey, 'ed25519')) {
    throw new CryptoError(
      'INVALID_EVENT',
      'event.pubkey: expected "ed25519:" followed by 64 lowercase hex digits',
    );
  }
  const template = _checkTemplate(event as unknown as Record<string, unknown>);
  return canonicalJson([
    EVENT_ID_TAG,
    event.pubkey,
    template.created_at,
    template.kind,
    template.tags,
    template.content,
  ]);
}

/**
 * The 32 id bytes of an event: SHA-256 of its UTF-8 encoded preimage, with the backend's SHA-256
 * when it has one (the result is the same either way).
 */
export function computeEventIdBytes(
  event: UnsignedEvent,
  backend?: Pick<SignatureBackend, 'sha256'>,
): Uint8Array {
  const preimage = encoder.encode(eventIdPreimage(event));
  return backend?.sha256 ? backend.sha256(preimage) : sha256(preimage);
}

/**
 * The event id, 64 lowercase hex. Fields that do not belong to the preimage (`id`, `sig`) are
 * ignored, so it can be called on a received event to recompute its id.
 * @example
 * computeEventId(event) === event.id; // the id check of verifyEvent
 */
export function computeEventId(event: UnsignedEvent, backend?: Pick<SignatureBackend, 'sha256'>): string {
  return bytesToHex(computeEventIdBytes(event, backend));
}
