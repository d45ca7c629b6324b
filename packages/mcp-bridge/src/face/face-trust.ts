/**
 * What the trust roots of the face's XProtocol sources let it list and call (docs/security.md,
 * "Trust roots"): a source with `trustRoots` is admitted only when a root vouches for its endpoint
 * (caller/endpoint-vouching.ts, through the caller's clock and remembering checker), and then only
 * its tools whose required capability the chain's capabilities cover are listed and callable. A
 * call checks the chain again at the caller's time, so a chain that ends while the face runs stops
 * its calls. Each fetch also asks the relays for revocations of the chain's links (one that is
 * revoked admits nothing until a chain that holds is announced). A source without trust roots is
 * not asked for a chain.
 * @module
 */
import { type AcceptedChain, anyCapabilityMatches } from '@xprotocol/crypto';
import type { Announce } from '@xprotocol/registry';
import type { EndpointVouch } from '../caller/endpoint-vouching.js';
import type { XpCaller } from '../caller/xp-caller.js';
import type { XpToolSource } from './face-options.js';

/** Why a call of a tool is refused by its source's trust roots. */
export interface _TrustRefusal {
  /** `not_vouched`: no root vouches for the endpoint now; `not_granted`: the chain does not cover the tool. */
  readonly reason: 'not_vouched' | 'not_granted';
  readonly message: string;
}

/** The vouched-for announce of an admitted source, and its chain. */
interface _Admitted {
  readonly announce: Announce;
  readonly chain: AcceptedChain;
  /** The revocations the relays held against its chain at that fetch. */
  readonly revocations: readonly unknown[];
}

/** The trust state of the face's XProtocol sources. */
export class _FaceTrust {
  readonly #sources: ReadonlyMap<string, XpToolSource>;
  readonly #caller: () => XpCaller;
  readonly #admitted = new Map<string, _Admitted>();
  /** Why a source with trust roots was not admitted at its last catalog fetch. */
  readonly #refused = new Map<string, string>();

  constructor(sources: readonly XpToolSource[], caller: () => XpCaller) {
    this.#sources = new Map(sources.map((source) => [source.name, source]));
    this.#caller = caller;
  }

  /** Whether source `name` asks for a chain. */
  checks(name: string): boolean {
    return (this.#sources.get(name)?.trustRoots?.length ?? 0) > 0;
  }

  /**
   * Checks the announce of source `name` now: `undefined` when a root vouches for it (remembered
   * for its tools and calls), else why not (the source lists nothing until a later fetch admits it).
   */
  admit(name: string, announce: Announce, revocations: readonly unknown[] = []): string | undefined {
    const verdict = this.#vouch(name, announce, revocations);
    if (verdict.ok) {
      this.#admitted.set(name, { announce, chain: verdict.chain, revocations });
      this.#refused.delete(name);
      return undefined;
    }
    this.#admitted.delete(name);
    this.#refused.set(name, verdict.message);
    return verdict.message;
  }

  /** Why source `name` lists nothing because of its trust roots, when it does. */
  refusal(name: string): string | undefined {
    return this.#refused.get(name);
  }

  /** Whether a tool of source `name` that needs `capability` may be listed (always, without trust roots). */
  grants(name: string, capability: string): boolean {
    if (!this.checks(name)) return true;
    const admitted = this.#admitted.get(name);
    return admitted !== undefined && anyCapabilityMatches(admitted.chain.capabilities, capability);
  }

  /**
   * Why the face tool `tool` of source `name`, which needs `capability`, may not be called now:
   * the chain checked again at the caller's time, then its capabilities. `undefined` when it may.
   */
  callRefusal(name: string, tool: string, capability: string): _TrustRefusal | undefined {
    if (!this.checks(name)) return undefined;
    const admitted = this.#admitted.get(name);
    if (admitted === undefined) {
      const why = this.#refused.get(name) ?? 'its endpoint was not checked yet';
      return { reason: 'not_vouched', message: `xprotocol source ${name} lists nothing: ${why}` };
    }
    const verdict = this.#vouch(name, admitted.announce, admitted.revocations);
    if (!verdict.ok) return { reason: 'not_vouched', message: verdict.message };
    if (anyCapabilityMatches(verdict.chain.capabilities, capability)) return undefined;
    return { reason: 'not_granted', message: _notGranted(name, tool, capability, admitted) };
  }

  /** The sentence saying that the chain of admitted source `name` does not grant `capability` to `tool`. */
  notGranted(name: string, tool: string, capability: string): string {
    const admitted = this.#admitted.get(name);
    return admitted === undefined
      ? `the tool ${tool} needs ${capability}, and xprotocol source ${name} is not vouched for`
      : _notGranted(name, tool, capability, admitted);
  }

  /** The caller's verdict on `announce` with the roots of source `name`, at the caller's clock. */
  #vouch(name: string, announce: Announce, revocations: readonly unknown[]): EndpointVouch {
    const roots = this.#sources.get(name)?.trustRoots ?? [];
    return this.#caller().vouch(announce, roots, `trust_root (xprotocol source ${name})`, revocations);
  }
}

function _notGranted(name: string, tool: string, capability: string, admitted: _Admitted): string {
  return `the tool ${tool} needs ${capability}, which the delegation chain of endpoint ${admitted.announce.keys.ed25519} (xprotocol source ${name}) does not grant: it grants ${admitted.chain.capabilities.join(', ')}`;
}
