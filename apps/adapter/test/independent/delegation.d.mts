// The types of delegation.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * The preimage of a delegation id (§11.1): absent optional fields are `null` in it.
 *
 * @param {{ issuer: string, delegated_key: string, capabilities: string[], on_behalf_of?: string,
 *   not_before: number, expires_at: number, nonce: string, proof?: string }} d
 */
export function delegationPreimage(d: {
  issuer: string;
  delegated_key: string;
  capabilities: string[];
  on_behalf_of?: string;
  not_before: number;
  expires_at: number;
  nonce: string;
  proof?: string;
}): string;
/**
 * A signed delegation from `issuer` (§11.1). Optional fields are left out, never `null`; the
 * nonce is 16 random bytes unless given.
 *
 * @param {{ publicKey: string, privateKey: import('node:crypto').KeyObject }} issuer
 * @param {{ delegated_key: string, capabilities: string[], on_behalf_of?: string, not_before: number,
 *   expires_at: number, nonce?: string, proof?: string }} fields
 */
export function makeDelegation(
  issuer: {
    publicKey: string;
    privateKey: import('node:crypto').KeyObject;
  },
  fields: {
    delegated_key: string;
    capabilities: string[];
    on_behalf_of?: string;
    not_before: number;
    expires_at: number;
    nonce?: string;
    proof?: string;
  },
): {
  id: string;
  sig: string;
  proof: string;
  not_before: number;
  expires_at: number;
  nonce: string;
  on_behalf_of: string;
  kind: string;
  issuer: string;
  delegated_key: string;
  capabilities: string[];
};
/**
 * A signed revocation of the delegation `revoked` (§11.2).
 *
 * @param {{ publicKey: string, privateKey: import('node:crypto').KeyObject }} issuer
 * @param {string} revoked the delegation id @param {number} createdAt
 */
export function makeRevocation(
  issuer: {
    publicKey: string;
    privateKey: import('node:crypto').KeyObject;
  },
  revoked: string,
  createdAt: number,
): {
  kind: string;
  issuer: string;
  revoked: string;
  created_at: number;
  id: string;
  sig: string;
};
/**
 * The public event that carries a revocation on relays (§11.2, "On relays"): signed by the
 * revoker, its content the revocation in canonical JSON, no `p` tag, an `expiration`.
 *
 * @param {{ publicKey: string, privateKey: import('node:crypto').KeyObject }} issuer
 * @param {ReturnType<typeof makeRevocation>} revocation @param {number} createdAt @param {number} expiration
 */
export function revocationEvent(
  issuer: {
    publicKey: string;
    privateKey: import('node:crypto').KeyObject;
  },
  revocation: ReturnType<typeof makeRevocation>,
  createdAt: number,
  expiration: number,
): import('./event.mjs').XpEvent;
/**
 * The chain id (§11.3): SHA-256 of `["xp/1/chain", [link ids, root first]]`; not signed.
 *
 * @param {{ id: string }[]} chain
 */
export function chainId(
  chain: {
    id: string;
  }[],
): string;
/**
 * The `delegation` tag of a request (§11.7): the chain id in the clear, the chain in canonical
 * JSON encrypted under the request's conversation key (§6), exactly as the content is.
 *
 * @param {object[] & { id: string }[]} chain root first @param {Buffer} conversationKey
 * @returns {string[]}
 */
export function delegationTag(
  chain: object[] &
    {
      id: string;
    }[],
  conversationKey: Buffer,
): string[];
