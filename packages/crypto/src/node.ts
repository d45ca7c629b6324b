/**
 * `@xprotocol/crypto/node` — the Node-only entry: the node:crypto backend and key files.
 * @module
 */

export { nodeCipher } from './cipher-node.js';
export { nodeSignatures } from './ed25519-node.js';
export * from './index.js';
export {
  decodeKeyFile,
  type EnsureKeyFileResult,
  encodeKeyFile,
  ensureKeyFile,
  type KeyFileContents,
  type KeyFileIdentity,
  readKeyFile,
  type WriteKeyFileOptions,
  writeKeyFile,
} from './key-file.js';
