/**
 * Who may call what (docs/design.md §4): deny by default; a grant gives a signing key a list
 * of capabilities, where `a.b.*` matches `a.b.x` and deeper but not `a.b`, and `*` matches all.
 * `default: allow` opens the endpoint to every key (the adapter warns about it at startup).
 * A key without a grant of its own may still be served under a delegation chain from one of
 * `trusted_issuers`; that is `DelegatedAccess`, which reads the grants and issuers kept here.
 * @module
 */
import { anyCapabilityMatches } from '@xprotocol/translate';

/** The `access` section, normalized. */
export interface AccessConfig {
  default: 'deny' | 'allow';
  grants: readonly { key: string; capabilities: readonly string[] }[];
  /** Keys whose delegation chains are honoured; each holds what its own grant gives it. */
  trustedIssuers?: readonly string[];
}

/** The verdict of {@link AccessPolicy.check}. */
export type AccessVerdict = { ok: true } | { ok: false; reason: string };

/** Capability checks for inbound calls. */
export class AccessPolicy {
  readonly #default: 'deny' | 'allow';
  readonly #grants = new Map<string, string[]>();
  readonly #trustedIssuers: readonly string[];

  constructor(config: AccessConfig) {
    this.#default = config.default;
    this.#trustedIssuers = [...new Set(config.trustedIssuers ?? [])];
    for (const grant of config.grants) {
      const list = this.#grants.get(grant.key) ?? [];
      list.push(...grant.capabilities);
      this.#grants.set(grant.key, list);
    }
  }

  /** Whether `sender` (an `ed25519:` key string) holds `required`. */
  check(sender: string, required: string): AccessVerdict {
    if (this.#default === 'allow') return { ok: true };
    const granted = this.#grants.get(sender);
    if (granted && anyCapabilityMatches(granted, required)) return { ok: true };
    // The caller says which capability was required ("<capability> is required: <reason>"), so
    // the reason says only why this key lacks it.
    return {
      ok: false,
      reason: granted
        ? `this key's grants (${granted.join(', ')}) do not include it`
        : 'this key has no grants here',
    };
  }

  /** The keys trusted as the roots of callers' delegation chains. */
  get trustedIssuers(): readonly string[] {
    return this.#trustedIssuers;
  }

  /** The capabilities granted to `sender` (empty when none). */
  grantsOf(sender: string): readonly string[] {
    return this.#grants.get(sender) ?? [];
  }
}
