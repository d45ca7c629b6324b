/**
 * The identity-bound conversation key (docs/protocol.md §5): the NIP-44 conversation key with the
 * secp256k1 ECDH replaced by X25519, and the HKDF salt bound to both parties' Ed25519 identities,
 * so a key derived for one pair of identities is useless for any other pair.
 * @module
 */
import { _assertBytes, type CipherBackend } from './cipher-backend.js';
import { nobleCipher } from './cipher-noble.js';

/** The ASCII domain-separation prefix hashed into the conversation salt. */
export const CONVERSATION_KEY_DOMAIN = 'xp/1/conv';

const DOMAIN_BYTES = new TextEncoder().encode(CONVERSATION_KEY_DOMAIN);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return 0;
}

/**
 * The HKDF salt of a conversation: SHA-256(`"xp/1/conv"` ‖ lower ‖ higher), where lower/higher
 * are the two 32-byte Ed25519 public keys in ascending (unsigned, lexicographic) byte order, so
 * both parties compute the same salt. Equal keys (a conversation with oneself) are allowed.
 */
export function conversationSalt(
  ed25519PublicA: Uint8Array,
  ed25519PublicB: Uint8Array,
  backend: CipherBackend = nobleCipher,
): Uint8Array {
  _assertBytes(ed25519PublicA, 32, 'an Ed25519 public key');
  _assertBytes(ed25519PublicB, 32, 'an Ed25519 public key');
  const [lower, higher] =
    compareBytes(ed25519PublicA, ed25519PublicB) <= 0
      ? [ed25519PublicA, ed25519PublicB]
      : [ed25519PublicB, ed25519PublicA];
  return backend.sha256(DOMAIN_BYTES, lower, higher);
}

/** Conversation keys kept per own X25519 secret (by array identity), at most this many each. */
const CACHE_PER_SECRET = 1024;

interface _CachedKey {
  /** The secret's bytes when the key was derived: a secret array changed since misses. */
  secret: Uint8Array;
  key: Uint8Array;
}

/** Per backend, per own secret array: (their X25519, my Ed25519, their Ed25519) hex → key. */
const _cache = new WeakMap<CipherBackend, WeakMap<Uint8Array, Map<string, _CachedKey>>>();

function _hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

function _sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && compareBytes(a, b) === 0;
}

/**
 * The 32-byte conversation key between two identities:
 * `HKDF-Extract(salt = conversationSalt(myEd25519Public, theirEd25519Public), IKM = X25519(myX25519Secret, theirX25519Public))`.
 * It is symmetric: the other party, with its own X25519 secret and this side's public keys,
 * derives the same key. Throws {@link CryptoError} `INVALID_KEY` for keys of the wrong size and
 * for a low-order X25519 public key (an all-zero shared secret).
 *
 * The key of a pair is derived once and then kept (for the life of the secret array, at most
 * 1,024 peers per secret, least recently used out first): every sealed request and answer between
 * the same two parties needs it, and the X25519 step is the costly part of sealing. A copy is
 * returned each time.
 * @example
 * const key = conversationKey(me.x25519.secretKey, them.x25519.publicKey, me.ed25519.publicKey, them.ed25519.publicKey);
 */
export function conversationKey(
  myX25519Secret: Uint8Array,
  theirX25519Public: Uint8Array,
  myEd25519Public: Uint8Array,
  theirEd25519Public: Uint8Array,
  backend: CipherBackend = nobleCipher,
): Uint8Array {
  _assertBytes(myX25519Secret, 32, 'an X25519 secret key');
  _assertBytes(theirX25519Public, 32, 'an X25519 public key');
  const salt = conversationSalt(myEd25519Public, theirEd25519Public, backend);
  let bySecret = _cache.get(backend);
  if (!bySecret) {
    bySecret = new WeakMap();
    _cache.set(backend, bySecret);
  }
  let peers = bySecret.get(myX25519Secret);
  if (!peers) {
    peers = new Map();
    bySecret.set(myX25519Secret, peers);
  }
  const id = _hex(theirX25519Public) + _hex(salt);
  const cached = peers.get(id);
  if (cached && _sameBytes(cached.secret, myX25519Secret)) {
    // Most recently used last: the first entry is the one to drop.
    peers.delete(id);
    peers.set(id, cached);
    return cached.key.slice();
  }
  const shared = backend.x25519SharedSecret(myX25519Secret, theirX25519Public);
  let key: Uint8Array;
  try {
    key = backend.hkdfExtract(salt, shared);
  } finally {
    shared.fill(0);
  }
  peers.delete(id);
  peers.set(id, { secret: myX25519Secret.slice(), key: key.slice() });
  if (peers.size > CACHE_PER_SECRET) peers.delete(peers.keys().next().value as string);
  return key;
}
