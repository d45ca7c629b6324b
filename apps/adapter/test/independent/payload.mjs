/**
 * Payload encryption, versions 2 and 3 (NIP-44 v2 on the conversation key), with the receiver's
 * checks in their order, written from docs/protocol.md §6.1 and §6.2 alone, on node:crypto. It
 * imports nothing from this repository: it is one part of an independent XProtocol client that
 * proves the document is enough to interoperate.
 *
 * @module
 */
import { createCipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RuleError } from './canonical-json.mjs';

/** The largest plaintext (§6.2), and the largest of version 2 (§6). */
export const MAX_PLAINTEXT = 3_080_192;
const MAX_V2 = 65_535;

/** @param {number} len the padded length without its prefix (§6.1) */
export function calcPaddedLen(len) {
  if (len <= 32) return 32;
  const nextPower = 2 ** (Math.floor(Math.log2(len - 1)) + 1);
  const chunk = nextPower <= 256 ? 32 : Math.min(nextPower / 8, 65_536);
  return chunk * (Math.floor((len - 1) / chunk) + 1);
}

/** HKDF-Expand of RFC 5869 with SHA-256. @param {Buffer} prk @param {Buffer} info @param {number} length */
function hkdfExpand(prk, info, length) {
  const blocks = [];
  let previous = Buffer.alloc(0);
  for (let i = 1; Buffer.concat(blocks).length < length; i++) {
    previous = createHmac('sha256', prk)
      .update(Buffer.concat([previous, info, Buffer.from([i])]))
      .digest();
    blocks.push(previous);
  }
  return Buffer.concat(blocks).subarray(0, length);
}

/**
 * The message keys of §6.1 (version 2) or §6.2 (version 3: info is 0x03 ‖ nonce).
 *
 * @param {Buffer} conversationKey @param {Buffer} nonce @param {2 | 3} version
 */
export function messageKeys(conversationKey, nonce, version) {
  const info = version === 2 ? nonce : Buffer.concat([Buffer.from([3]), nonce]);
  const okm = hkdfExpand(conversationKey, info, 76);
  return { chachaKey: okm.subarray(0, 32), chachaNonce: okm.subarray(32, 44), hmacKey: okm.subarray(44, 76) };
}

/** ChaCha20 of RFC 8439 with the block counter at 0. @param {Buffer} key @param {Buffer} nonce @param {Buffer} data */
function chacha20(key, nonce, data) {
  const iv = Buffer.concat([Buffer.alloc(4), nonce]);
  const cipher = createCipheriv('chacha20', key, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/**
 * Encrypts `plaintext` (§6): version 2 up to 65,535 bytes, else version 3.
 *
 * @param {Buffer} conversationKey @param {string} plaintext @param {Buffer} [nonce] 32 bytes, random by default
 */
export function encryptPayload(conversationKey, plaintext, nonce = randomBytes(32)) {
  const bytes = Buffer.from(plaintext, 'utf8');
  if (bytes.toString('utf8') !== plaintext) throw new RuleError('§6', 'a lone surrogate cannot be encoded');
  if (bytes.length < 1 || bytes.length > MAX_PLAINTEXT) {
    throw new RuleError('§6.2', `a plaintext is 1 to ${MAX_PLAINTEXT} bytes, got ${bytes.length}`);
  }
  const version = bytes.length <= MAX_V2 ? 2 : 3;
  const prefix = Buffer.alloc(version === 2 ? 2 : 4);
  if (version === 2) prefix.writeUInt16BE(bytes.length);
  else prefix.writeUInt32BE(bytes.length);
  const padded = Buffer.concat([prefix, bytes, Buffer.alloc(calcPaddedLen(bytes.length) - bytes.length)]);
  const keys = messageKeys(conversationKey, nonce, version);
  const ciphertext = chacha20(keys.chachaKey, keys.chachaNonce, padded);
  const mac = createHmac('sha256', keys.hmacKey).update(nonce).update(ciphertext).digest();
  return Buffer.concat([Buffer.from([version]), nonce, ciphertext, mac]).toString('base64');
}

/** @param {string} reason @returns {never} */
function refuse(reason) {
  throw new RuleError('§6.1', reason);
}

/**
 * Decrypts a payload with the receiver's checks of §6.1 in their order (version 3's bounds from
 * §6.2). Returns the plaintext and the 32-byte nonce.
 *
 * @param {Buffer} conversationKey @param {string} payload
 */
export function decryptPayload(conversationKey, payload) {
  if (payload.startsWith('#')) refuse('unknown encryption version');
  if (payload.length < 132 || payload.length > 4_107_016) refuse('invalid payload length');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 !== 0) refuse('invalid base64');
  const data = Buffer.from(payload, 'base64');
  if (data.toString('base64') !== payload) refuse('invalid base64'); // unused bits must be zero
  const version = data[0];
  if (version !== 2 && version !== 3) refuse(`unknown encryption version ${version}`);
  const [minData, maxData] = version === 2 ? [99, 65_603] : [65_605, 3_080_261];
  if (data.length < minData || data.length > maxData) refuse('invalid data length');
  const nonce = data.subarray(1, 33);
  const ciphertext = data.subarray(33, data.length - 32);
  const keys = messageKeys(conversationKey, nonce, version);
  const mac = createHmac('sha256', keys.hmacKey).update(nonce).update(ciphertext).digest();
  if (!timingSafeEqual(mac, data.subarray(data.length - 32))) refuse('invalid MAC');
  const padded = chacha20(keys.chachaKey, keys.chachaNonce, ciphertext);
  const prefixBytes = version === 2 ? 2 : 4;
  const len = version === 2 ? padded.readUInt16BE(0) : padded.readUInt32BE(0);
  const [minLen, maxLen] = version === 2 ? [1, MAX_V2] : [MAX_V2 + 1, MAX_PLAINTEXT];
  if (len < minLen || len > maxLen || padded.length !== prefixBytes + calcPaddedLen(len))
    refuse('invalid padding');
  const bytes = padded.subarray(prefixBytes, prefixBytes + len);
  let plaintext;
  try {
    plaintext = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    refuse('the plaintext is not valid UTF-8');
  }
  return { plaintext, nonce, version };
}
