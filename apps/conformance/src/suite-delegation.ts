/**
 * The delegation chains and revocations of the optional delegated-identity checks
 * (docs/protocol.md §11): the adapter's own chain file under the suite's root, and the chains the
 * suite's callers present in a `delegation` tag (§11.7), good and broken. Signed here with the
 * suite's keys; nothing of the adapter under test is used.
 * @module
 */
import {
  type Delegation,
  type Ed25519KeyString,
  type Identity,
  type Revocation,
  signDelegation,
  signRevocation,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';

/** One link to sign: who signs it, and what it gives to whom. */
export interface LinkSpec {
  readonly signer: Identity;
  readonly to: string;
  readonly capabilities: readonly string[];
  /** Seconds from now; −60 by default. */
  readonly from?: number;
  /** Seconds from now; a day by default. */
  readonly until?: number;
}

/** A chain, root first: each link after the first carries the previous link's id as its proof. */
export function signChain(links: readonly LinkSpec[], now: number): Delegation[] {
  const chain: Delegation[] = [];
  for (const link of links) {
    chain.push(
      signDelegation(
        {
          delegated_key: link.to as Ed25519KeyString,
          capabilities: [...link.capabilities],
          not_before: now + (link.from ?? -60),
          expires_at: now + (link.until ?? 86_400),
          proof: chain.at(-1)?.id,
        },
        link.signer.ed25519.secretKey,
        nodeSignatures,
      ),
    );
  }
  return chain;
}

/** The adapter's chain file: one link from the suite's root to the adapter's key, for a day. */
export function adapterChain(root: Identity, adapterKey: string, now: number): Delegation[] {
  return signChain([{ signer: root, to: adapterKey, capabilities: ['*'] }], now);
}

/** A revocation of `link` by `revoker` (§11.2). */
export function revoke(link: Delegation, revoker: Identity, now: number): Revocation {
  return signRevocation({ revoked: link.id, created_at: now }, revoker.ed25519.secretKey, nodeSignatures);
}
