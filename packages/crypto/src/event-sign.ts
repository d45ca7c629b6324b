/**
 * Signing events (docs/protocol.md §2–3): derive the author's key, compute the id, sign the 32
 * id bytes.
 * @module
 */
import { nobleSignatures } from './ed25519-noble.js';
import { CryptoError } from './errors.js';
import { _checkTemplate, _oversize, type EventTemplate, type XpEvent } from './event.js';
import { computeEventIdBytes } from './event-id.js';
import { bytesToHex } from './hex.js';
import { formatKey } from './key-string.js';
import { MAX_EVENT_BYTES } from './limits.js';
import type { SignatureBackend } from './signature-backend.js';

/**
 * Signs a template with a 32-byte Ed25519 secret key (seed) and returns the complete event. The
 * template's `tags` are copied, so later changes to them do not alter the event.
 *
 * Throws {@link CryptoError} `INVALID_EVENT` naming the field when the template is invalid or
 * the signed event would exceed {@link MAX_EVENT_BYTES}, and `INVALID_KEY` when `secretKey` is
 * not 32 bytes.
 * @example
 * const event = signEvent({ created_at: 1700000000, kind: 'com.test.echo', tags: [], content: 'hi' }, secretKey);
 */
export function signEvent(
  template: EventTemplate,
  secretKey: Uint8Array,
  backend: SignatureBackend = nobleSignatures,
): XpEvent {
  const checked = _checkTemplate(template as unknown as Record<string, unknown>);
  const pubkey = formatKey('ed25519', backend.publicKey(secretKey));
  const unsigned = {
    pubkey,
    created_at: checked.created_at,
    kind: checked.kind,
    tags: checked.tags,
    content: checked.content,
  };
  const idBytes = computeEventIdBytes(unsigned, backend);
  const event: XpEvent = {
    id: bytesToHex(idBytes),
    ...unsigned,
    sig: bytesToHex(backend.sign(idBytes, secretKey)),
  };
  const size = _oversize(event);
  if (size !== null) {
    throw new CryptoError(
      'INVALID_EVENT',
      `event: expected at most ${MAX_EVENT_BYTES} bytes of JSON, got ${size}; nothing was signed that verifiers accept`,
    );
  }
  return event;
}
