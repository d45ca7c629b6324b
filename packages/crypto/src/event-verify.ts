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
  const prepared = _prepare(event, backend);
  if (!prepared.ok) return prepared;
  const { checked, idBytes } = prepared;
  const valid = backend.verify(
    hexToBytes(checked.sig, 64),
    idBytes,
    parseKey(checked.pubkey, 'ed25519').bytes,
  );
  return valid ? { ok: true, event: checked } : _badSignature(checked, backend);
}

/**
 * {@link verifyEvent} with the signature checked off the calling thread when the backend can
 * (`verifyAsync`: node:crypto on libuv's thread pool); otherwise the same synchronous check.
 * The same checks in the same order, the same verdicts; only the Ed25519 equation moves, so a
 * server's event loop keeps reading sockets while the signatures of many events are checked in
 * parallel. Shape, size and id are checked before it returns its promise. Never rejects.
 * @example
 * const verdict = await verifyEventAsync(JSON.parse(text), nodeSignatures);
 */
export async function verifyEventAsync(
  event: unknown,
  backend: SignatureBackend = nobleSignatures,
): Promise<VerifyEventResult> {
  const prepared = _prepare(event, backend);
  if (!prepared.ok) return prepared;
  const { checked, idBytes } = prepared;
  const signature = hexToBytes(checked.sig, 64);
  const publicKey = parseKey(checked.pubkey, 'ed25519').bytes;
  const valid = backend.verifyAsync
    ? await backend.verifyAsync(signature, idBytes, publicKey)
    : backend.verify(signature, idBytes, publicKey);
  return valid ? { ok: true, event: checked } : _badSignature(checked, backend);
}

/** Steps 1–2 (shape, size, id): the checked event and its id bytes, or the first failure. */
function _prepare(
  event: unknown,
  backend: SignatureBackend,
):
  | { readonly ok: true; readonly checked: XpEvent; readonly idBytes: Uint8Array }
  | { readonly ok: false; readonly code: EventRejection; readonly message: string } {
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
  return { ok: true, checked, idBytes };
}

function _badSignature(checked: XpEvent, backend: SignatureBackend): VerifyEventResult {
  return {
    ok: false,
    code: 'signature',
    message: `event.sig: not a valid Ed25519 signature of the id by ${checked.pubkey} (${backend.name} backend)`,
  };
}
