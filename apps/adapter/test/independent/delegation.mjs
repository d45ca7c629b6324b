/**
 * Delegations, revocations, chain ids and the `delegation` tag, written from docs/protocol.md §11
 * (§11.1, §11.2, §11.3, §11.7) alone. It imports nothing from this repository: it is one part of
 * an independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson, RuleError } from './canonical-json.mjs';
import { signBytes } from './ed25519.mjs';
import { signEvent } from './event.mjs';
import { encryptPayload } from './payload.mjs';

/** The domain strings that start each preimage (§11.1, "Signing domains"). */
const DELEGATE_DOMAIN = 'xp/1/delegate';
const REVOKE_DOMAIN = 'xp/1/revoke';
const CHAIN_DOMAIN = 'xp/1/chain';
/** The longest chain (§11.3) and the most capabilities one link may list (§11.1). */
const MAX_LINKS = 8;
const MAX_CAPABILITIES = 64;

/** @param {string} text */
const sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The preimage of a delegation id (§11.1): absent optional fields are `null` in it.
 *
 * @param {{ issuer: string, delegated_key: string, capabilities: string[], on_behalf_of?: string,
 *   not_before: number, expires_at: number, nonce: string, proof?: string }} d
 */
export function delegationPreimage(d) {
  return canonicalJson([
    DELEGATE_DOMAIN,
    d.issuer,
    d.delegated_key,
    d.capabilities,
    d.on_behalf_of ?? null,
    d.not_before,
    d.expires_at,
    d.nonce,
    d.proof ?? null,
  ]);
}

/**
 * A signed delegation from `issuer` (§11.1). Optional fields are left out, never `null`; the
 * nonce is 16 random bytes unless given.
 *
 * @param {{ publicKey: string, privateKey: import('node:crypto').KeyObject }} issuer
 * @param {{ delegated_key: string, capabilities: string[], on_behalf_of?: string, not_before: number,
 *   expires_at: number, nonce?: string, proof?: string }} fields
 */
export function makeDelegation(issuer, fields) {
  const { capabilities } = fields;
  if (capabilities.length < 1 || capabilities.length > MAX_CAPABILITIES)
    throw new RuleError(
      '§11.1',
      `expected 1 to ${MAX_CAPABILITIES} capabilities, got ${capabilities.length}`,
    );
  if (new Set(capabilities).size !== capabilities.length)
    throw new RuleError('§11.1', 'expected distinct capabilities');
  const body = {
    kind: 'xp.key.delegate',
    issuer: issuer.publicKey,
    delegated_key: fields.delegated_key,
    capabilities: [...capabilities],
    ...(fields.on_behalf_of !== undefined && { on_behalf_of: fields.on_behalf_of }),
    not_before: fields.not_before,
    expires_at: fields.expires_at,
    nonce: fields.nonce ?? randomBytes(16).toString('hex'),
    ...(fields.proof !== undefined && { proof: fields.proof }),
  };
  const id = sha256Hex(delegationPreimage(body));
  return { ...body, id, sig: signBytes(issuer.privateKey, Buffer.from(id, 'hex')) };
}

/**
 * A signed revocation of the delegation `revoked` (§11.2).
 *
 * @param {{ publicKey: string, privateKey: import('node:crypto').KeyObject }} issuer
 * @param {string} revoked the delegation id @param {number} createdAt
 */
export function makeRevocation(issuer, revoked, createdAt) {
  const id = sha256Hex(canonicalJson([REVOKE_DOMAIN, issuer.publicKey, revoked, createdAt]));
  return {
    kind: 'xp.key.revoke',
    issuer: issuer.publicKey,
    revoked,
    created_at: createdAt,
    id,
    sig: signBytes(issuer.privateKey, Buffer.from(id, 'hex')),
  };
}

/**
 * The public event that carries a revocation on relays (§11.2, "On relays"): signed by the
 * revoker, its content the revocation in canonical JSON, no `p` tag, an `expiration`.
 *
 * @param {{ publicKey: string, privateKey: import('node:crypto').KeyObject }} issuer
 * @param {ReturnType<typeof makeRevocation>} revocation @param {number} createdAt @param {number} expiration
 */
export function revocationEvent(issuer, revocation, createdAt, expiration) {
  if (revocation.issuer !== issuer.publicKey)
    throw new RuleError('§11.2', "a revocation's event is signed by its issuer");
  return signEvent(issuer, {
    created_at: createdAt,
    kind: 'xp.key.revoke',
    tags: [['expiration', String(expiration)]],
    content: canonicalJson(revocation),
  });
}

/**
 * The chain id (§11.3): SHA-256 of `["xp/1/chain", [link ids, root first]]`; not signed.
 *
 * @param {{ id: string }[]} chain
 */
export function chainId(chain) {
  if (chain.length < 1 || chain.length > MAX_LINKS)
    throw new RuleError('§11.3', `expected a chain of 1 to ${MAX_LINKS} links, got ${chain.length}`);
  return sha256Hex(canonicalJson([CHAIN_DOMAIN, chain.map((link) => link.id)]));
}

/**
 * The `delegation` tag of a request (§11.7): the chain id in the clear, the chain in canonical
 * JSON encrypted under the request's conversation key (§6), exactly as the content is.
 *
 * @param {object[] & { id: string }[]} chain root first @param {Buffer} conversationKey
 * @returns {string[]}
 */
export function delegationTag(chain, conversationKey) {
  return ['delegation', chainId(chain), encryptPayload(conversationKey, canonicalJson(chain))];
}
