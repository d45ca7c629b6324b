/**
 * The `delegation` tag of a request (docs/protocol.md §11.7): the caller's delegation chain, so an
 * endpoint that trusts the chain's root can serve a key it has no grant for. The chain id travels
 * in the clear, the chain itself encrypted under the event's conversation key: a chain names an
 * organisation's keys, what it lets each do, and the user a key acts for, none of which a relay
 * should learn. The event's signature covers the tag like every other.
 * @module
 */
import {
  type CipherBackend,
  canonicalJson,
  delegationChainId,
  getTags,
  type Identity,
  type PublicIdentity,
  type XpEvent,
} from '@xprotocol/crypto';
import { _openTagValue, _sealTagValue } from './sealed-tag.js';

/** The tag's name. */
export const DELEGATION_TAG = 'delegation';

/** The `["delegation", <chain id>, <ciphertext>]` tag for `chain` (links root first), from `sender` to `recipient`. */
export function _sealDelegationTag(
  chain: readonly { id: string }[],
  sender: Identity,
  recipient: PublicIdentity,
  cipher: CipherBackend,
): string[] {
  return [
    DELEGATION_TAG,
    delegationChainId(
      chain.map((link) => link.id),
      cipher,
    ),
    _sealTagValue(canonicalJson(chain), sender, recipient, cipher),
  ];
}

/** What {@link _openDelegationTag} found: nothing, the chain and its id, or why the tag is unusable. */
export type _DelegationTagVerdict =
  | { present: false }
  | { present: true; ok: true; chainId: string; chain: unknown[] }
  | { present: true; ok: false; reason: string };

const CHAIN_ID = /^[0-9a-f]{64}$/;

/** The chain id a `delegation` tag states, without opening it (undefined when there is no well-formed tag). */
export function _delegationTagChainId(event: XpEvent): string | undefined {
  const tags = getTags(event, DELEGATION_TAG);
  const id = tags.length === 1 && tags[0]!.length === 3 ? tags[0]![1] : undefined;
  return id !== undefined && CHAIN_ID.test(id) ? id : undefined;
}

/**
 * Opens the `delegation` tag of a verified request addressed to `recipient`: exactly one tag of
 * three elements, a chain id of 64 lowercase hex, a ciphertext that decrypts to a JSON array whose
 * links' `id`s give that chain id. Whether the chain itself holds is the chain check's question.
 */
export function _openDelegationTag(
  event: XpEvent,
  recipient: Identity,
  cipher: CipherBackend,
): _DelegationTagVerdict {
  const tags = getTags(event, DELEGATION_TAG);
  if (tags.length === 0) return { present: false };
  const refuse = (reason: string): _DelegationTagVerdict => ({ present: true, ok: false, reason });
  const chainId = _delegationTagChainId(event);
  if (chainId === undefined)
    return refuse('expected one ["delegation", <chain id: 64 lowercase hex>, <encrypted chain>] tag');
  const opened = _openTagValue(event, DELEGATION_TAG, tags[0]![2]!, recipient, cipher);
  if (!opened.ok) return refuse(opened.reason);
  const text = opened.text;
  let chain: unknown;
  try {
    chain = JSON.parse(text);
  } catch {
    return refuse('the delegation tag is not JSON');
  }
  if (!Array.isArray(chain) || chain.length === 0)
    return refuse('the delegation tag holds no chain (a JSON array of delegations, root first)');
  const ids = chain.map((link) => (link as { id?: unknown } | null)?.id);
  if (!ids.every((id): id is string => typeof id === 'string' && CHAIN_ID.test(id)))
    return refuse('a link of the chain in the delegation tag has no id of 64 lowercase hex');
  const actual = delegationChainId(ids, cipher);
  if (actual !== chainId)
    return refuse(`the delegation tag names chain ${chainId}, but the chain it holds is ${actual}`);
  return { present: true, ok: true, chainId, chain };
}
