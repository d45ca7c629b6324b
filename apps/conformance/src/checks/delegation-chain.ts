/**
 * Optional check 12, delegated identity in the announce (docs/protocol.md §10.3, §11.4): when the
 * adapter's announce carries `delegation_chain`, the chain passes the chain check with its own
 * link 0 issuer as the root at the suite's clock, and its last link delegates to the announce's
 * key. An announce without the field is the behaviour absent, not a failure.
 * @module
 */
import { checkDelegationChain } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { type Check, show } from '../check.js';
import { nowSeconds, verifies } from '../xp-client.js';

const MAX_LINKS = 8;

export const delegationChain: Check = {
  name: 'delegation-chain',
  number: 12,
  optional: 'Delegated identity',
  title: "Delegated identity: the announce's delegation_chain vouches for the announce's key",
  async run(context) {
    const { target } = context;
    const announce = await context.facts.announce();
    const sent = `a subscription to xp.endpoint.announce by ${target.adapter.ed25519}`;
    if (
      !context.expect(announce !== undefined && verifies(announce), {
        what: 'the adapter publishes a signed announce',
        sent,
        received: show(announce),
        expected: 'an xp.endpoint.announce that verifies',
      })
    ) {
      return;
    }
    let chain: unknown;
    try {
      chain = (JSON.parse(announce!.content) as { delegation_chain?: unknown }).delegation_chain;
    } catch {
      chain = undefined;
    }
    if (chain === undefined) {
      context.absent(
        target.delegation.configured
          ? target.adapterChain
            ? 'the announce has no delegation_chain, though the adapter was started with identity.parent_delegation_event'
            : 'the announce has no delegation_chain'
          : target.delegation.reason,
      );
      return;
    }
    const isLinks =
      Array.isArray(chain) &&
      chain.length >= 1 &&
      chain.length <= MAX_LINKS &&
      chain.every((link) => typeof link === 'object' && link !== null && !Array.isArray(link));
    if (
      !context.expect(isLinks, {
        what: 'delegation_chain is 1 to 8 JSON objects (§10.3)',
        sent,
        received: show(chain),
        expected: 'an array of 1 to 8 delegation objects, root first',
      })
    ) {
      return;
    }
    const links = chain as { issuer?: unknown; id?: unknown }[];
    const root = String(links[0]!.issuer);
    const verdict = checkDelegationChain(
      { chain, trustedRoots: [root], at: nowSeconds(), revocations: [] },
      nodeSignatures,
    );
    if (
      !context.expect(verdict.ok, {
        what: 'the chain passes the chain check with its own link 0 issuer as the root (§11.4)',
        sent,
        received: verdict.ok ? 'accepted' : `refused: ${verdict.code}: ${verdict.message}`,
        expected: 'accepted: form, signatures, links and window hold at the suite clock',
      })
    ) {
      return;
    }
    if (!verdict.ok) return;
    context.expect(verdict.delegatedKey === announce!.pubkey, {
      what: "the chain's last link delegates to the announce's key",
      sent,
      received: `the last link delegates to ${verdict.delegatedKey} (not_the_signer)`,
      expected: `delegated_key ${announce!.pubkey}`,
    });
    if (target.adapterChain) {
      const given = target.adapterChain.map((link) => link.id);
      context.expect(show(verdict.linkIds) === show(given), {
        what: 'the announce carries the chain file it was given, as it is',
        sent: `identity.parent_delegation_event with links ${show(given)}`,
        received: `links ${show(verdict.linkIds)}`,
        expected: 'the same links, in the same order',
      });
    }
    context.note(
      `chain of ${links.length} link(s) from ${root} to ${verdict.delegatedKey}, [${verdict.capabilities.join(', ')}], valid ${verdict.notBefore}..${verdict.expiresAt}`,
    );
  },
};
