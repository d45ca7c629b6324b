/**
 * A {@link SignatureBackend} that remembers the signatures it found valid. A client sees the same
 * event more than once (on several subscriptions of one connection, from several relays, again
 * after a resubscription) and Ed25519 verification is the costly step of checking it. The event's
 * id is still recomputed from its content every time (`verifyEvent` does that before it asks the
 * backend), so only a signature already proven valid for exactly that id and key is skipped.
 * @module
 */
import type { SignatureBackend } from '@xprotocol/crypto';

/** Wraps `backend`: `verify` answers true at once for a (signature, message, key) it verified before. */
export function _rememberValidSignatures(backend: SignatureBackend, capacity = 4096): SignatureBackend {
  const valid = new Set<string>();
  const latin1 = (bytes: Uint8Array) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return Object.freeze({
    ...backend,
    verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
      const key = `${latin1(signature)}${latin1(message)}${latin1(publicKey)}`;
      if (valid.has(key)) return true;
      const ok = backend.verify(signature, message, publicKey);
      if (ok) {
        valid.add(key);
        // Oldest out first (a Set keeps insertion order).
        if (valid.size > capacity) valid.delete(valid.values().next().value as string);
      }
      return ok;
    },
  });
}
