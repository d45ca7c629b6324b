/**
 * Verifying events: the first three steps of the verification order of docs/protocol.md §4 —
 * size/shape, id, signature. Dedupe, freshness, kind lookup, authority, rate limit, decryption
 * and schema follow in the relay and the bridge.
 * @module
 */
import { nobleSignatures } from './ed25519-noble.js';
import { CryptoError } from './errors.js';
import { _checkShape, _oversize, type XpEvent } from './event.js';
import { computeEventIdBytes } from './event-id.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { parseKey } from './key-string.js';
import { MAX_EVENT_BYTES } from './limits.js';
import type { SignatureBackend } from './signature-backend.js';

/** Which check an event failed. Every failure here is dropped on the wire, never answered. */
export type EventRejection = 'shape' | 'size' | 'id' | 'signature';

/** The verdict of {@link verifyEvent}. */
export type VerifyEventResult =
  | { readonly ok: true; readonly event: XpEvent }
  | { readonly ok: false; readonly code: EventRejection; readonly message: string };

/**
 * Checks, in order, the shape (every field, see `parseEvent`), the size limit
 * ({@link MAX_EVENT_BYTES}), that `id` is the recomputed id, and that `sig` is a valid signature
 * of the id bytes by `pubkey` under the one rule. Never throws on bad input: the first failure is
 * returned with a message naming what was wrong. On success the typed event is returned.
 * @example
 * const verdict = verifyEvent(JSON.parse(text), nodeSignatures);
 * if (!verdict.ok) log.warn({ code: verdict.code }, verdict.message); // and drop it
 */
export function verifyEvent(event: unknown, backend: SignatureBackend = nobleSignatures): VerifyEventResult {
  let checked: XpEvent;
  try {
    checked = _checkShape(event);
  } catch (error) {
    // A getter or proxy that throws is as malformed as a wrong field: report it, never rethrow.
    const message =
      error instanceof CryptoError ? error.message : `event: could not be read (${String(error)})`;
    return { ok: false, code: 'shape', message };
  }
  const size = _oversize(checked);
  if (size !== null) {
    return {
      ok: false,
      code: 'size',
      message: `event: expected at most ${MAX_EVENT_BYTES} bytes of JSON, got ${size}`,
    };
  }
  const idBytes = computeEventIdBytes(checked, backend);
  const id = bytesToHex(idBytes);
  if (id !== checked.id) {
    return {
      ok: false,
      code: 'id',
      message: `event.id: expected ${id} (the recomputed id), got ${checked.id}`,
    };
  }
  const valid = backend.verify(
    hexToBytes(checked.sig, 64),
    idBytes,
    parseKey(checked.pubkey, 'ed25519').bytes,
  );
  if (!valid) {
    return {
      ok: false,
      code: 'signature',
      message: `event.sig: not a valid Ed25519 signature of the id by ${checked.pubkey} (${backend.name} backend)`,
    };
  }
  return { ok: true, event: checked };
}
