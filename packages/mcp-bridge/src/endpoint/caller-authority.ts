/**
 * Step 7 of docs/protocol.md §4 for one request: what its signer may do, by its own grant or by the
 * delegation chain in its `delegation` tag (§11.7), and the `xp.error` of a refusal. A chain is
 * opened once per (signer, chain id) and kept; its links' issuers are watched for revocations
 * before it is judged, so a chain is never accepted for want of asking the relays.
 * @module
 */
import type { CipherBackend, Identity, XpEvent } from '@xprotocol/crypto';
import { type XpErrorPayload, xpError } from '@xprotocol/wire';
import { _delegationTagChainId, _openDelegationTag } from '../caller/xp-delegation-tag.js';
import type { AuthorityVerdict, DelegatedAccess, PresentedChain } from '../policy/delegated-access.js';
import type { _RevocationWatch } from './revocation-watch.js';

/** What one request may do: the verdict for each capability it needs. */
export type _Authority = (required: string) => AuthorityVerdict;

/** How many opened chains are kept, by signer and chain id. */
const MAX_OPENED_CHAINS = 1024;

/** Refusals after which the links were read and hold: their issuers are worth watching. */
const LINKS_HOLD = new Set(['revoked', 'not_yet_valid', 'expired']);

/** Options of {@link _CallerChains}. */
export interface _CallerChainsOptions {
  identity: Identity;
  cipher: CipherBackend;
  delegated: DelegatedAccess;
  watch: _RevocationWatch;
  /** The clock, in ms. */
  now: () => number;
}

/** The chains callers present, opened and judged. */
export class _CallerChains {
  readonly #o: _CallerChainsOptions;
  /** Opened chains by `signer chainId`, least recently used first. */
  readonly #opened = new Map<string, unknown[]>();

  constructor(options: _CallerChainsOptions) {
    this.#o = options;
  }

  /** The authority of `event`'s signer: its own grants, else the chain it presented. */
  async authorityOf(event: XpEvent): Promise<_Authority> {
    const presented = await this.#present(event);
    return (required) => this.#o.delegated.authorize(event.pubkey, required, presented);
  }

  /** The chain of `event`'s `delegation` tag, judged at the endpoint's clock; undefined without one. */
  async #present(event: XpEvent): Promise<PresentedChain | undefined> {
    const chain = this.#chainOf(event);
    if (chain === undefined || 'problem' in chain) return chain;
    const { delegated, watch } = this.#o;
    const at = () => Math.floor(this.#o.now() / 1000);
    const verdict = delegated.checkChain(chain.links, at());
    if (!verdict.ok && !LINKS_HOLD.has(verdict.code)) return { verdict };
    // Only a chain whose links hold (so a trusted issuer vouched for every key in it) adds keys to
    // watch: a made-up chain cannot make the endpoint subscribe to anyone.
    const issuers = chain.links.map((link) => (link as { issuer: string }).issuer);
    const watched = watch.watch(issuers);
    if (watched === 'full') {
      return {
        problem: 'its issuers would pass the number of keys this endpoint watches for revocations',
        code: 'unwatched',
      };
    }
    await watched;
    const saturated = delegated.saturatedIssuer(issuers);
    if (saturated !== undefined) {
      return {
        problem: `${saturated} has issued as many revocations as this endpoint keeps for one key, so a new one could be missed`,
        code: 'unwatched',
      };
    }
    return { verdict: delegated.checkChain(chain.links, at()) };
  }

  /** The links of the tag, from the keep when this signer presented the same chain id before. */
  #chainOf(event: XpEvent): { links: unknown[] } | { problem: string; code: 'tag' } | undefined {
    const chainId = _delegationTagChainId(event);
    const key = `${event.pubkey} ${chainId}`;
    const kept = chainId === undefined ? undefined : this.#opened.get(key);
    if (kept !== undefined) {
      this.#opened.delete(key);
      this.#opened.set(key, kept);
      return { links: kept };
    }
    const tag = _openDelegationTag(event, this.#o.identity, this.#o.cipher);
    if (!tag.present) return undefined;
    if (!tag.ok) return { problem: tag.reason, code: 'tag' };
    this.#opened.set(key, tag.chain);
    if (this.#opened.size > MAX_OPENED_CHAINS)
      this.#opened.delete(this.#opened.keys().next().value as string);
    return { links: tag.chain };
  }
}

/** The `xp.error` of a refused capability: `REVOKED` or `AUTHORIZATION_INSUFFICIENT`, with what the chain check found. */
export function _authorityError(required: string, verdict: AuthorityVerdict & { ok: false }): XpErrorPayload {
  return xpError(verdict.code, `${required} is required: ${verdict.reason}`, {
    details: {
      required_capability: required,
      ...(verdict.chainCode !== undefined && { chain_code: verdict.chainCode }),
      ...(verdict.chainLink !== undefined && { chain_link: verdict.chainLink }),
    },
  });
}

/** The log fields that say whose authority a served call ran under. */
export function _attribution(verdict: AuthorityVerdict & { ok: true }): Record<string, string> {
  if (!verdict.chain) return {};
  return {
    principal: verdict.principal,
    chain: verdict.chain.id,
    root: verdict.chain.root,
    ...(verdict.chain.onBehalfOf !== undefined && { on_behalf_of: verdict.chain.onBehalfOf }),
  };
}
