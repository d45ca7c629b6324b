/**
 * `@xprotocol/crypto/node` — the Node-only entry: the node:crypto backend and key files.
 * @module
 */
export * from './index.js';
