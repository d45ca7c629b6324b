/**
 * Payload encryption (docs/protocol.md §6): NIP-44 version 2 unchanged on top of the
 * identity-bound conversation key, plus version 3 for plaintexts over 65,535 bytes.
 *
 * Version 2 (NIP-44 "Encryption" steps, as specified at github.com/nostr-protocol/nips/blob/master/44.md):
 * message keys = HKDF-Expand(conversation_key, info = nonce, 76) split 32/12/32 into the ChaCha20
 * key, the ChaCha20 nonce and the HMAC key; padded = u16be(len) ‖ plaintext ‖ zeros up to
 * {@link calcPaddedLength}; ciphertext = ChaCha20(padded); mac = HMAC-SHA256(hmac key, nonce ‖
 * ciphertext); payload = base64(0x02 ‖ nonce ‖ ciphertext ‖ mac).
 *
 * Version 3 (ours): the same with info = 0x03 ‖ nonce (33 bytes, so v2 and v3 message keys never
 * coincide), a 32-bit big-endian length prefix, the padding chunk capped at 65,536 bytes, and
 * version byte 0x03. It carries 65,536 … {@link MAX_PLAINTEXT_BYTES} bytes; each plaintext has exactly one
 * version.
 * @module
 */
import { _base64Decode, _base64Encode, _base64Length } from './_base64.js';
import { _concatBytes, _constantTimeEqual, _loneSurrogateIndex, _utf8Decode, _utf8Encode } from './_bytes.js';
import { _assertBytes, type CipherBackend } from './cipher-backend.js';
import { nobleCipher } from './cipher-noble.js';
import { CryptoError } from './errors.js';

/** A payload version: 2 (NIP-44 v2, up to 65,535 bytes) or 3 (larger plaintexts). */
export type PayloadVersion = 2 | 3;

/** The largest plaintext of a version 2 payload, in UTF-8 bytes (NIP-44 v2). */
export const MAX_V2_PLAINTEXT_BYTES = 65_535;

/**
 * The largest plaintext this package encrypts or accepts, in UTF-8 bytes: 3,080,192 (47 × 64 KiB,
 * about 2.94 MiB). Its version 3 payload is 4,107,016 base64 characters, which leaves about 85 KiB
 * of the 4 MiB event limit for the other fields of a sealed event.
 */
export const MAX_PLAINTEXT_BYTES = 47 * 65_536;

/** The largest padding chunk (version 3 above 512 KiB). */
const MAX_V3_CHUNK = 65_536;
const NONCE_BYTES = 32;
const MAC_BYTES = 32;

/** The three keys HKDF-Expand derives for one message. */
export interface MessageKeys {
  /** 32-byte ChaCha20 key. */
  readonly chachaKey: Uint8Array;
  /** 12-byte ChaCha20 nonce. */
  readonly chachaNonce: Uint8Array;
  /** 32-byte HMAC-SHA256 key. */
  readonly hmacKey: Uint8Array;
}

/** Options of {@link encryptPayload}. */
export interface EncryptPayloadOptions {
  /** The 32-byte nonce; random by default. Fix it only for test vectors: a reused nonce leaks plaintext. */
  readonly nonce?: Uint8Array;
  /** Force a version; by default 2 up to 65,535 bytes and 3 above. A version that cannot carry the length throws. */
  readonly version?: PayloadVersion;
  /** The primitives to use; {@link nobleCipher} by default. */
  readonly backend?: CipherBackend;
}

/** Options of {@link decryptPayload}. */
export interface DecryptPayloadOptions {
  /** The primitives to use; {@link nobleCipher} by default. */
  readonly backend?: CipherBackend;
}

function invalid(message: string): CryptoError {
  return new CryptoError('INVALID_PAYLOAD', message);
}

function formatBytes(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The message keys of one payload: HKDF-Expand(conversationKey, info, 76) split into
 * `chachaKey` (bytes 0–31), `chachaNonce` (32–43) and `hmacKey` (44–75), where info is the
 * 32-byte nonce for version 2 and `0x03 ‖ nonce` for version 3.
 */
export function messageKeys(
  conversationKey: Uint8Array,
  nonce: Uint8Array,
  version: PayloadVersion = 2,
  backend: CipherBackend = nobleCipher,
): MessageKeys {
  _assertBytes(conversationKey, 32, 'a conversation key');
  _assertBytes(nonce, NONCE_BYTES, 'a payload nonce');
  const info = version === 2 ? nonce : _concatBytes(Uint8Array.of(3), nonce);
  const keys = backend.hkdfExpand(conversationKey, info, 76);
  return {
    chachaKey: keys.subarray(0, 32),
    chachaNonce: keys.subarray(32, 44),
    hmacKey: keys.subarray(44, 76),
  };
}

/**
 * The padded length of a plaintext of `length` bytes (the zero bytes are added after the
 * plaintext; the length prefix comes on top): NIP-44's `calc_padded_len` — 32 up to 32 bytes,
 * else the next multiple of a chunk that is 32 bytes while the next power of two above
 * `length − 1` is at most 256, and an eighth of that power beyond — with the chunk capped at
 * 65,536 bytes. The cap never applies to version 2 (1 … 65,535 bytes, chunks up to 8,192), so
 * version 2 is NIP-44 exactly; in version 3 it bounds the padding to 64 KiB. Throws
 * `INVALID_PAYLOAD` outside 1 … {@link MAX_PLAINTEXT_BYTES}.
 * @example
 * calcPaddedLength(33); // 64
 * calcPaddedLength(65_537); // 81_920
 */
export function calcPaddedLength(length: number): number {
  if (!Number.isInteger(length) || length < 1 || length > MAX_PLAINTEXT_BYTES) {
    throw invalid(
      `expected a plaintext length of 1 to ${formatBytes(MAX_PLAINTEXT_BYTES)} bytes, got ${length}`,
    );
  }
  if (length <= 32) return 32;
  const nextPower = 2 ** (Math.floor(Math.log2(length - 1)) + 1);
  // The cap only matters above 512 KiB (version 3): it bounds the padding to 64 KiB.
  const chunk = nextPower <= 256 ? 32 : Math.min(nextPower / 8, MAX_V3_CHUNK);
  return chunk * (Math.floor((length - 1) / chunk) + 1);
}

function prefixBytes(version: PayloadVersion): number {
  return version === 2 ? 2 : 4;
}

function pad(plaintext: Uint8Array, version: PayloadVersion): Uint8Array {
  const prefix = prefixBytes(version);
  const out = new Uint8Array(prefix + calcPaddedLength(plaintext.length));
  const view = new DataView(out.buffer);
  if (version === 2) view.setUint16(0, plaintext.length, false);
  else view.setUint32(0, plaintext.length, false);
  out.set(plaintext, prefix);
  return out;
}

function unpad(padded: Uint8Array, version: PayloadVersion): Uint8Array {
  const view = new DataView(padded.buffer, padded.byteOffset, padded.byteLength);
  const prefix = prefixBytes(version);
  const length = version === 2 ? view.getUint16(0, false) : view.getUint32(0, false);
  const [min, max] =
    version === 2 ? [1, MAX_V2_PLAINTEXT_BYTES] : [MAX_V2_PLAINTEXT_BYTES + 1, MAX_PLAINTEXT_BYTES];
  if (length < min || length > max) {
    throw invalid(
      `invalid padding: a version ${version} payload carries ${formatBytes(min)} to ${formatBytes(max)} bytes, its length prefix says ${formatBytes(length)}`,
    );
  }
  const expected = prefix + calcPaddedLength(length);
  if (padded.length !== expected) {
    throw invalid(
      `invalid padding: ${formatBytes(length)} bytes pad to ${formatBytes(expected)}, the payload holds ${formatBytes(padded.length)}`,
    );
  }
  return padded.subarray(prefix, prefix + length);
}

/**
 * Encrypts `plaintext` (a well-formed Unicode string, 1 … {@link MAX_PLAINTEXT_BYTES} UTF-8 bytes)
 * under a 32-byte conversation key and returns the base64 payload. Throws {@link CryptoError}
 * `INVALID_PAYLOAD` for an empty plaintext, a lone surrogate, or a plaintext over the limit (the
 * message names the limit).
 * @example
 * const payload = encryptPayload('{"path":"README.md"}', key);
 * decryptPayload(payload, key); // '{"path":"README.md"}'
 */
export function encryptPayload(
  plaintext: string,
  conversationKey: Uint8Array,
  options: EncryptPayloadOptions = {},
): string {
  const backend = options.backend ?? nobleCipher;
  if (typeof plaintext !== 'string')
    throw invalid(`expected the plaintext as a string, got ${typeof plaintext}`);
  const lone = _loneSurrogateIndex(plaintext);
  if (lone >= 0) {
    throw invalid(`plaintext has a lone UTF-16 surrogate at index ${lone}; it cannot be encoded as UTF-8`);
  }
  const bytes = _utf8Encode(plaintext);
  if (bytes.length === 0) throw invalid('plaintext is empty; NIP-44 payloads carry 1 byte or more');
  const natural: PayloadVersion = bytes.length > MAX_V2_PLAINTEXT_BYTES ? 3 : 2;
  const version = options.version ?? natural;
  if (version !== natural) {
    throw invalid(
      version === 2
        ? `plaintext is ${formatBytes(bytes.length)} bytes; version 2 carries at most ${formatBytes(MAX_V2_PLAINTEXT_BYTES)}`
        : `plaintext is ${formatBytes(bytes.length)} bytes; version 3 carries ${formatBytes(MAX_V2_PLAINTEXT_BYTES + 1)} bytes or more`,
    );
  }
  if (bytes.length > MAX_PLAINTEXT_BYTES) {
    throw invalid(
      `plaintext is ${formatBytes(bytes.length)} bytes, over the limit of ${formatBytes(MAX_PLAINTEXT_BYTES)} bytes (about 2.9 MiB, so that a sealed event stays under the 4 MiB event limit)`,
    );
  }
  const nonce = options.nonce ?? backend.randomBytes(NONCE_BYTES);
  _assertBytes(nonce, NONCE_BYTES, 'a payload nonce');
  const keys = messageKeys(conversationKey, nonce, version, backend);
  const ciphertext = backend.chacha20(keys.chachaKey, keys.chachaNonce, pad(bytes, version));
  const mac = backend.hmacSha256(keys.hmacKey, nonce, ciphertext);
  return _base64Encode(_concatBytes(Uint8Array.of(version), nonce, ciphertext, mac));
}

// Sizes of the decoded payload (version ‖ nonce ‖ ciphertext ‖ mac) per version.
const OVERHEAD = 1 + NONCE_BYTES + MAC_BYTES;
const V2_MIN = OVERHEAD + 2 + 32;
const V2_MAX = OVERHEAD + 2 + 65_536;
const V3_MIN = OVERHEAD + 4 + 65_536;
const V3_MAX = OVERHEAD + 4 + MAX_PLAINTEXT_BYTES;
/** Shortest and longest base64 payload text this package decodes. */
const TEXT_MIN = _base64Length(V2_MIN);
const TEXT_MAX = _base64Length(V3_MAX);

/**
 * Decrypts a base64 payload under a 32-byte conversation key and returns the plaintext. Checks,
 * in this order, each failure a {@link CryptoError} naming the reason: the text does not start
 * with `#` (`unknown encryption version`), its length is within the range of the
 * versions (`invalid payload length`), it is strict base64 (`invalid base64`), the version byte is
 * 2 or 3 (`unknown encryption version N`), the decoded size fits that version (`invalid data
 * length`), the MAC matches in constant time (`DECRYPT_FAILED`, `invalid MAC`), the length prefix
 * and padding are exact (`invalid padding`), and the plaintext is valid UTF-8. All but the MAC
 * failure have code `INVALID_PAYLOAD`.
 */
export function decryptPayload(
  payload: string,
  conversationKey: Uint8Array,
  options: DecryptPayloadOptions = {},
): string {
  const backend = options.backend ?? nobleCipher;
  _assertBytes(conversationKey, 32, 'a conversation key');
  if (typeof payload !== 'string') throw invalid(`expected the payload as a string, got ${typeof payload}`);
  if (payload[0] === '#') {
    throw invalid('unknown encryption version: a payload starting with "#" is a future, non-base64 format');
  }
  if (payload.length < TEXT_MIN || payload.length > TEXT_MAX) {
    throw invalid(
      `invalid payload length: ${formatBytes(payload.length)} characters, expected ${formatBytes(TEXT_MIN)} to ${formatBytes(TEXT_MAX)}`,
    );
  }
  let data: Uint8Array;
  try {
    data = _base64Decode(payload);
  } catch (error) {
    throw new CryptoError('INVALID_PAYLOAD', (error as Error).message, { cause: error });
  }
  const version = data[0];
  if (version !== 2 && version !== 3) throw invalid(`unknown encryption version ${version}, expected 2 or 3`);
  const [min, max] = version === 2 ? [V2_MIN, V2_MAX] : [V3_MIN, V3_MAX];
  if (data.length < min || data.length > max) {
    throw invalid(
      `invalid data length: a version ${version} payload decodes to ${formatBytes(min)} to ${formatBytes(max)} bytes, got ${formatBytes(data.length)}`,
    );
  }
  const nonce = data.subarray(1, 1 + NONCE_BYTES);
  const ciphertext = data.subarray(1 + NONCE_BYTES, data.length - MAC_BYTES);
  const mac = data.subarray(data.length - MAC_BYTES);
  const keys = messageKeys(conversationKey, nonce, version, backend);
  if (!_constantTimeEqual(backend.hmacSha256(keys.hmacKey, nonce, ciphertext), mac)) {
    throw new CryptoError(
      'DECRYPT_FAILED',
      'invalid MAC: the payload was not encrypted under this conversation key, or was altered',
    );
  }
  const plaintext = unpad(backend.chacha20(keys.chachaKey, keys.chachaNonce, ciphertext), version);
  try {
    return _utf8Decode(plaintext);
  } catch (error) {
    throw new CryptoError('INVALID_PAYLOAD', 'invalid plaintext: the decrypted bytes are not valid UTF-8', {
      cause: error,
    });
  }
}
