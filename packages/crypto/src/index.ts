/**
 * `@xprotocol/crypto` — identities, event ids, signatures and payload encryption for XProtocol.
 * This entry runs anywhere (browser, worker, Node); the faster node:crypto backend is in
 * `@xprotocol/crypto/node`.
 * @module
 */
export { CryptoError, type CryptoErrorCode } from './errors.js';
export { bytesToHex, hexToBytes } from './hex.js';
export {
  type Ed25519KeyString,
  formatKey,
  isKeyString,
  type KeyAlgorithm,
  parseKey,
  type X25519KeyString,
} from './key-string.js';
