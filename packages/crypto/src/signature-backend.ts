/**
 * The Ed25519 backend interface. Two implementations apply the same rule (docs/protocol.md §3):
 * `nobleSignatures` (pure JS, every runtime) and `nodeSignatures` (node:crypto, from
 * `@xprotocol/crypto/node`). Their verdicts are identical on every input; tests cross-check them.
 * @module
 */

/** Ed25519 (RFC 8032, pure Ed25519) with the protocol's one verification rule. */
export interface SignatureBackend {
  /** Which implementation this is. */
  readonly name: 'noble' | 'node';
  /**
   * The 32-byte public key of a 32-byte secret key (the RFC 8032 seed). Throws
   * `CryptoError` `INVALID_KEY` when `secretKey` is not 32 bytes.
   */
  publicKey(secretKey: Uint8Array): Uint8Array;
  /**
   * The deterministic 64-byte RFC 8032 signature of `message`. Throws `CryptoError`
   * `INVALID_KEY` when `secretKey` is not 32 bytes.
   */
  sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array;
  /**
   * True when `signature` is valid for `message` and `publicKey` under the one rule: the shared
   * pre-check (`ed25519PreCheck`) passes and the cofactorless equation `[s]B = R + [k]A` holds.
   * Never throws; any malformed input (wrong lengths included) is `false`.
   */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  /**
   * {@link SignatureBackend.verify} off the calling thread, with the same verdict on every input.
   * Optional: the node backend runs it on libuv's thread pool, so a server verifies many events
   * at once on every core while its event loop goes on. Never rejects.
   */
  readonly verifyAsync?: (
    signature: Uint8Array,
    message: Uint8Array,
    publicKey: Uint8Array,
  ) => Promise<boolean>;
  /**
   * SHA-256, used for event ids when this backend signs or verifies events. Optional: without it
   * ids are hashed with @noble/hashes. The node backend supplies node:crypto's, about 15× faster
   * on a 4 MiB event, so the id check is not where a flood of large events costs the most.
   */
  readonly sha256?: (data: Uint8Array) => Uint8Array;
}
