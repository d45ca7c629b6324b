/**
 * `@xprotocol/crypto` — identities, event ids, signatures and payload encryption for XProtocol.
 * This entry runs anywhere (browser, worker, Node); the faster node:crypto backend is in
 * `@xprotocol/crypto/node`.
 * @module
 */

export { type CanonicalJsonOptions, canonicalJson } from './canonical-json.js';
export {
  anyCapabilityMatches,
  capabilityCovers,
  capabilityMatches,
  isValidCapability,
  isValidGrant,
} from './capability.js';
export { type CipherBackend, HKDF_SHA256_MAX_LENGTH } from './cipher-backend.js';
export { nobleCipher } from './cipher-noble.js';
export { CONVERSATION_KEY_DOMAIN, conversationKey, conversationSalt } from './conversation-key.js';
export {
  computeDelegationId,
  DELEGATION_DOMAIN,
  DELEGATION_KIND,
  type Delegation,
  type DelegationRejection,
  type DelegationTemplate,
  delegationPreimage,
  MAX_DELEGATION_CAPABILITIES,
  parseDelegation,
  signDelegation,
  type UnsignedDelegation,
  type VerifyDelegationResult,
  verifyDelegation,
} from './delegation.js';
export {
  type AcceptedChain,
  CHAIN_DOMAIN,
  type ChainCheckInput,
  type ChainLinkRef,
  type ChainRefusal,
  type ChainVerdict,
  checkDelegationChain,
  delegationChainId,
  MAX_CHAIN_LINKS,
  type RefusedChain,
} from './delegation-chain.js';
export { DelegationChainChecker, type DelegationChainCheckerOptions } from './delegation-checker.js';
export { nobleSignatures } from './ed25519-noble.js';
export { type Ed25519Rejection, ed25519PreCheck } from './ed25519-rule.js';
export {
  decryptVerifiedEvent,
  type EnvelopeBackends,
  eventRecipient,
  type OpenedEvent,
  type OpenedJsonEvent,
  openEvent,
  openEventJson,
  type SealInput,
  type SealOptions,
  sealEvent,
} from './envelope.js';
export { CryptoError, type CryptoErrorCode } from './errors.js';
export {
  createEventTemplate,
  EVENT_FIELDS,
  type EventTemplate,
  type EventTemplateInput,
  eventByteLength,
  getExpiration,
  getTag,
  getTags,
  isValidKind,
  parseEvent,
  type UnsignedEvent,
  type XpEvent,
} from './event.js';
export { computeEventId, computeEventIdBytes, EVENT_ID_TAG, eventIdPreimage } from './event-id.js';
export { signEvent } from './event-sign.js';
export {
  checkFreshness,
  DEFAULT_MAX_AGE_SECONDS,
  DEFAULT_MAX_FUTURE_SECONDS,
  type FreshnessWindow,
  isExpired,
} from './event-time.js';
export {
  type EventRejection,
  type VerifyEventResult,
  verifyEvent,
  verifyEventAsync,
} from './event-verify.js';
export { bytesToHex, hexToBytes } from './hex.js';
export {
  generateIdentity,
  type Identity,
  type IdentityBackends,
  identityFromSecretKeys,
  type KeyPair,
  type PublicIdentity,
} from './identity.js';
export {
  type Ed25519KeyString,
  formatKey,
  isKeyString,
  type KeyAlgorithm,
  parseKey,
  type X25519KeyString,
} from './key-string.js';
export { MAX_EVENT_BYTES, MAX_JSON_DEPTH } from './limits.js';
export {
  calcPaddedLength,
  type DecryptPayloadOptions,
  decryptPayload,
  type EncryptPayloadOptions,
  encryptPayload,
  MAX_PLAINTEXT_BYTES,
  MAX_V2_PLAINTEXT_BYTES,
  type MessageKeys,
  messageKeys,
  type PayloadVersion,
} from './nip44.js';
export {
  parseRevocation,
  REVOCATION_DOMAIN,
  REVOCATION_KIND,
  type Revocation,
  type RevocationTemplate,
  revocationPreimage,
  signRevocation,
  type VerifyRevocationResult,
  verifyRevocation,
} from './revocation.js';
export {
  parseRotation,
  ROTATION_DOMAIN,
  ROTATION_KIND,
  type Rotation,
  type RotationRefusal,
  type RotationTemplate,
  rotationInGrace,
  rotationPreimage,
  signRotation,
  type VerifyRotationResult,
  verifyRotation,
} from './rotation.js';
export type { SignatureBackend } from './signature-backend.js';
export { utf8Length } from './utf8-length.js';
export { isLowOrderX25519 } from './x25519-low-order.js';
