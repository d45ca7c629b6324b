/**
 * Identities (docs/protocol.md §1): an Ed25519 key pair that signs and names the party, and an
 * X25519 key pair that payloads are encrypted to. Secret keys are 32 random bytes each (the
 * RFC 8032 seed; the RFC 7748 scalar before clamping).
 * @module
 */
import { _assertBytes, type CipherBackend } from './cipher-backend.js';
import { nobleCipher } from './cipher-noble.js';
import { nobleSignatures } from './ed25519-noble.js';
import { type Ed25519KeyString, formatKey, type X25519KeyString } from './key-string.js';
import type { SignatureBackend } from './signature-backend.js';

/** A 32-byte public key and its 32-byte secret key. */
export interface KeyPair {
  readonly publicKey: Uint8Array;
  readonly secretKey: Uint8Array;
}

/** The public half of an identity, as key strings: what others need to verify and encrypt. */
export interface PublicIdentity {
  readonly ed25519: Ed25519KeyString;
  readonly x25519: X25519KeyString;
}

/** A full identity: both key pairs and their public key strings. */
export interface Identity {
  readonly ed25519: KeyPair;
  readonly x25519: KeyPair;
  /** The public keys as key strings, e.g. to hand to `sealEvent` as a recipient. */
  readonly keys: PublicIdentity;
}

/** The backends an identity is derived with; each defaults to the noble implementation. */
export interface IdentityBackends {
  readonly signatures?: SignatureBackend;
  readonly cipher?: CipherBackend;
}

/**
 * Rebuilds an identity from its two 32-byte secret keys, deriving the public keys. Throws
 * {@link CryptoError} `INVALID_KEY` when a secret is not 32 bytes.
 */
export function identityFromSecretKeys(
  secretKeys: { readonly ed25519: Uint8Array; readonly x25519: Uint8Array },
  backends: IdentityBackends = {},
): Identity {
  const signatures = backends.signatures ?? nobleSignatures;
  const cipher = backends.cipher ?? nobleCipher;
  _assertBytes(secretKeys.ed25519, 32, 'an Ed25519 secret key');
  _assertBytes(secretKeys.x25519, 32, 'an X25519 secret key');
  const ed25519 = {
    publicKey: signatures.publicKey(secretKeys.ed25519),
    secretKey: Uint8Array.from(secretKeys.ed25519),
  };
  const x25519 = {
    publicKey: cipher.x25519PublicKey(secretKeys.x25519),
    secretKey: Uint8Array.from(secretKeys.x25519),
  };
  return {
    ed25519,
    x25519,
    keys: { ed25519: formatKey('ed25519', ed25519.publicKey), x25519: formatKey('x25519', x25519.publicKey) },
  };
}

/**
 * Generates a new identity from the cipher backend's secure random generator.
 * @example
 * const me = generateIdentity();
 * me.keys.ed25519; // 'ed25519:…' — the identity others address
 */
export function generateIdentity(backends: IdentityBackends = {}): Identity {
  const cipher = backends.cipher ?? nobleCipher;
  return identityFromSecretKeys(
    { ed25519: cipher.randomBytes(32), x25519: cipher.randomBytes(32) },
    backends,
  );
}
